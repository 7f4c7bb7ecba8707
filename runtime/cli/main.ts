// The `tsibase` command line: dispatches to one handler per sub-command.

const USAGE = `usage: tsibase <command> [options]

commands:
  node <dir>    run a node with its data in <dir>
  help          show this text`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return 0;
    case 'node':
      console.error(`tsibase node ${rest.join(' ')}: this build has no node runtime yet; ` +
        'it provides the host-api package (fracpack, names, core types)');
      return 1;
    default:
      console.error(`tsibase: unknown command '${command}'\n\n${USAGE}`);
      return 2;
  }
}
