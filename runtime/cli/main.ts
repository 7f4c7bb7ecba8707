// The `tsibase` command line: dispatches to one handler per sub-command.
import { TsibaseError } from '../../host-api/errors.js';

const USAGE = `usage: tsibase <command> [options]

commands:
  dev                            run a development chain on http://tsibase.localhost:8080
  new-service <name>             start a service project in the folder <name>
  build [entry.ts]               compile a service into build/<service>.wasm and its schema
  codegen <schema.json>          write a service's typed TypeScript client from its schema
  node <dir>                     run a node with its data in <dir>
  boot [bundle]                  boot a chain on a node that has none
  create <account>               create an account (with a key, or insecure)
  deploy <account> <file.wasm>   install a service
  push <actions.json>            push a signed transaction
  login <account>                get a bearer token for an account
  info                           show the node's chain
  producers [set <name>...]      show or change the chain's block producers
  testnet <n>                    run a network of n producer nodes on this machine
  create-snapshot <dir> <file>   write the node's newest signed snapshot to a file
  load-snapshot <dir> <file>     load a snapshot file into a node directory
  keys                           generate a key pair, or show the public key of one
  help                           show this text

Run 'tsibase <command> --help' for a command's options.`;

type Command = (argv: string[]) => number | Promise<number>;

/**
 * Each command's module is loaded when it runs: `tsibase node` forks the node into a child
 * process (runtime/cli/supervisor.ts), and a supervisor that loaded every command (the client's
 * HTTP stack, the runtime) before forking put that load on every node start.
 */
const COMMANDS: Record<string, () => Promise<{ run: Command; usage: string }>> = {
  keys: () => import('./commands/keys.js').then((m) => ({ run: m.keysCommand, usage: m.KEYS_USAGE })),
  dev: () => import('./commands/dev.js').then((m) => ({ run: m.devCommand, usage: m.DEV_USAGE })),
  'new-service': () => import('./commands/new-service.js').then((m) => ({ run: m.newServiceCommand, usage: m.NEW_SERVICE_USAGE })),
  build: () => import('./commands/build.js').then((m) => ({ run: m.buildCommand, usage: m.BUILD_USAGE })),
  codegen: () => import('./commands/codegen.js').then((m) => ({ run: m.codegenCommand, usage: m.CODEGEN_USAGE })),
  node: () => import('./commands/node.js').then((m) => ({ run: m.nodeCommand, usage: m.NODE_USAGE })),
  boot: () => import('./commands/boot.js').then((m) => ({ run: m.bootCommand, usage: m.BOOT_USAGE })),
  create: () => import('./commands/create.js').then((m) => ({ run: m.createCommand, usage: m.CREATE_USAGE })),
  deploy: () => import('./commands/deploy.js').then((m) => ({ run: m.deployCommand, usage: m.DEPLOY_USAGE })),
  push: () => import('./commands/push.js').then((m) => ({ run: m.pushCommand, usage: m.PUSH_USAGE })),
  login: () => import('./commands/login.js').then((m) => ({ run: m.loginCommand, usage: m.LOGIN_USAGE })),
  info: () => import('./commands/info.js').then((m) => ({ run: m.infoCommand, usage: m.INFO_USAGE })),
  producers: () => import('./commands/producers.js').then((m) => ({ run: m.producersCommand, usage: m.PRODUCERS_USAGE })),
  testnet: () => import('./commands/testnet.js').then((m) => ({ run: m.testnetCommand, usage: m.TESTNET_USAGE })),
  'create-snapshot': () => import('./commands/create-snapshot.js').then((m) => ({ run: m.createSnapshotCommand, usage: m.CREATE_SNAPSHOT_USAGE })),
  'load-snapshot': () => import('./commands/load-snapshot.js').then((m) => ({ run: m.loadSnapshotCommand, usage: m.LOAD_SNAPSHOT_USAGE })),
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    console.log(USAGE);
    return 0;
  }
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    console.error(`tsibase: unknown command '${name}'\n\n${USAGE}`);
    return 2;
  }
  const command = await load();
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(command.usage);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    // Our own errors and system errors (missing files, refused connections) are the user's to
    // fix: print the message. Anything else is a bug and keeps its stack.
    if (err instanceof TsibaseError || (err instanceof Error && typeof (err as NodeJS.ErrnoException).code === 'string')) {
      console.error(`tsibase ${name}: ${err.message}`);
      return (err as TsibaseError).code === 'CLI_USAGE' ? 2 : 1;
    }
    throw err;
  }
}
