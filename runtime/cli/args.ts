import { TsibaseError } from '../../host-api/errors.js';

// Command-line parsing shared by the sub-commands: `--name value`, `--name=value`, `-x value`,
// boolean flags, and positional arguments; unknown options are errors that name the option.

export interface OptionSpec {
  /** Long name without dashes. */
  readonly name: string;
  readonly short?: string;
  /** True for a flag that takes no value. */
  readonly flag?: boolean;
  readonly repeatable?: boolean;
}

export interface ParsedArgs {
  readonly positional: string[];
  readonly options: Map<string, string[]>;
}

export class UsageError extends TsibaseError {
  constructor(message: string) {
    super('CLI_USAGE', message);
  }
}

export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[]): ParsedArgs {
  const byLong = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short).map((s) => [s.short!, s]));
  const positional: string[] = [];
  const options = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    let spec: OptionSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--')) {
      const [name, value] = arg.slice(2).split(/=(.*)/s, 2);
      spec = byLong.get(name!);
      inline = value;
      if (!spec) throw new UsageError(`unknown option --${name}`);
    } else if (arg.startsWith('-') && arg.length > 1) {
      spec = byShort.get(arg.slice(1));
      if (!spec) throw new UsageError(`unknown option ${arg}`);
    } else {
      positional.push(arg);
      continue;
    }
    let value = 'true';
    if (!spec.flag) {
      value = inline ?? argv[++i] ?? '';
      if (inline === undefined && i >= argv.length) throw new UsageError(`option --${spec.name} needs a value`);
    } else if (inline !== undefined) {
      throw new UsageError(`option --${spec.name} takes no value`);
    }
    const values = options.get(spec.name) ?? [];
    if (values.length && !spec.repeatable) throw new UsageError(`option --${spec.name} is given more than once`);
    options.set(spec.name, [...values, value]);
  }
  return { positional, options };
}

export function option(args: ParsedArgs, name: string): string | undefined {
  return args.options.get(name)?.[0];
}
