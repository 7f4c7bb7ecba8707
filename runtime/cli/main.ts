// The `tsibase` command line: dispatches to one handler per sub-command.
import { TsibaseError } from '../../host-api/errors.js';
import { BOOT_USAGE, bootCommand } from './commands/boot.js';
import { BUILD_USAGE, buildCommand } from './commands/build.js';
import { CREATE_USAGE, createCommand } from './commands/create.js';
import { DEPLOY_USAGE, deployCommand } from './commands/deploy.js';
import { DEV_USAGE, devCommand } from './commands/dev.js';
import { INFO_USAGE, infoCommand } from './commands/info.js';
import { LOGIN_USAGE, loginCommand } from './commands/login.js';
import { PUSH_USAGE, pushCommand } from './commands/push.js';
import { KEYS_USAGE, keysCommand } from './commands/keys.js';
import { NEW_SERVICE_USAGE, newServiceCommand } from './commands/new-service.js';
import { NODE_USAGE, nodeCommand } from './commands/node.js';

const USAGE = `usage: tsibase <command> [options]

commands:
  dev                            run a development chain on http://tsibase.localhost:8080
  new-service <name>             start a service project in the folder <name>
  build [entry.ts]               compile a service into build/<service>.wasm and its schema
  node <dir>                     run a node with its data in <dir>
  boot [bundle]                  boot a chain on a node that has none
  create <account>               create an account (with a key, or insecure)
  deploy <account> <file.wasm>   install a service
  push <actions.json>            push a signed transaction
  login <account>                get a bearer token for an account
  info                           show the node's chain
  keys                           generate a key pair, or show the public key of one
  help                           show this text

Run 'tsibase <command> --help' for a command's options.`;

type Command = (argv: string[]) => number | Promise<number>;

const COMMANDS: Record<string, { run: Command; usage: string }> = {
  keys: { run: keysCommand, usage: KEYS_USAGE },
  dev: { run: devCommand, usage: DEV_USAGE },
  'new-service': { run: newServiceCommand, usage: NEW_SERVICE_USAGE },
  build: { run: buildCommand, usage: BUILD_USAGE },
  node: { run: nodeCommand, usage: NODE_USAGE },
  boot: { run: bootCommand, usage: BOOT_USAGE },
  create: { run: createCommand, usage: CREATE_USAGE },
  deploy: { run: deployCommand, usage: DEPLOY_USAGE },
  push: { run: pushCommand, usage: PUSH_USAGE },
  login: { run: loginCommand, usage: LOGIN_USAGE },
  info: { run: infoCommand, usage: INFO_USAGE },
};

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    console.log(USAGE);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`tsibase: unknown command '${name}'\n\n${USAGE}`);
    return 2;
  }
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
