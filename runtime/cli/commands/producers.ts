import { UsageError, parseArgs } from '../args.js';
import { readPublicKey } from '../key-arguments.js';
import { producerSetAction, producerSetOf, type Algorithm, type ProducerEntry, type ProducerSet } from '../producer-set.js';
import { CLIENT_OPTIONS, CLIENT_OPTIONS_USAGE, accountArgument, chainClient, pushOptions } from './client-options.js';

export const PRODUCERS_USAGE = `usage: tsibase producers [-a <url>]
       tsibase producers set <name[=key]>... [--bft | --cft] [options]

Without 'set': the chain's block producers, their consensus (CFT or BFT) and a change not yet
in force. With 'set': makes the names the producer set (producers::setProducers, or
setConsensus with --bft or --cft), pushed as the producers account; on a secure chain sign it
with the root key (-s root.pem). The change is in force once the block holding it is
irreversible (joint consensus, docs/p2p.md §6.1); each producer's node must be running with
-p <name> and linked to the network. A name may carry its block-signing key, name=<key> (a
public or private key file, or the key as hex; its node must hold the private key): without
one the producer's blocks are not signed.

options:
${CLIENT_OPTIONS_USAGE}
      --bft                     the producers run BFT (producers::setConsensus)
      --cft                     the producers run CFT (producers::setConsensus)
                                (neither: the chain's current consensus)`;

/** `name` or `name=key`. */
function producerEntry(argument: string): ProducerEntry {
  const [name, key] = argument.split(/=(.*)/s, 2) as [string, string | undefined];
  const entry = { name: accountArgument(name) };
  return key === undefined ? entry : { ...entry, publicKey: readPublicKey(key) };
}

function describe(set: ProducerSet): string[] {
  const lines = [`consensus: ${set.algorithm}`, `producers: ${set.names.length ? set.names.join(', ') : '(none)'}`];
  if (set.pending) {
    lines.push(`pending:   ${set.pending.algorithm} ${set.pending.names.join(', ')} (made in block ${set.pending.since}; in force once that block is irreversible)`);
  }
  return lines;
}

export async function producersCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, [...CLIENT_OPTIONS, { name: 'bft', flag: true }, { name: 'cft', flag: true }]);
  const [verb, ...names] = args.positional;
  const client = chainClient(args);
  if (verb === undefined) {
    if (args.options.has('bft') || args.options.has('cft')) throw new UsageError(`--bft and --cft are for 'producers set'\n\n${PRODUCERS_USAGE}`);
    for (const line of describe(await producerSetOf(client))) console.log(line);
    return 0;
  }
  if (verb !== 'set') throw new UsageError(`unknown argument '${verb}': 'tsibase producers' lists the producers, 'tsibase producers set <name>...' changes them\n\n${PRODUCERS_USAGE}`);
  if (names.length === 0) throw new UsageError(`'producers set' needs the names of the producers\n\n${PRODUCERS_USAGE}`);
  if (args.options.has('bft') && args.options.has('cft')) throw new UsageError('give --bft or --cft, not both');
  const entries = names.map(producerEntry);
  const duplicate = entries.find((e, i) => entries.findIndex((f) => f.name === e.name) !== i);
  if (duplicate) throw new UsageError(`producer ${duplicate.name} is named twice`);
  const algorithm: Algorithm | undefined = args.options.has('bft') ? 'BFT' : args.options.has('cft') ? 'CFT' : undefined;
  const { id } = await client.push([producerSetAction(entries, algorithm)], pushOptions(args));
  console.log(`producers set to ${entries.map((e) => e.name).join(', ')}${algorithm ? ` (${algorithm})` : ''} in transaction ${id}`);
  for (const line of describe(await producerSetOf(client))) console.log(line);
  return 0;
}
