import { InvalidArgumentError, type Command } from 'commander';

/** Every data command takes --json: one JSON document on stdout, no bars. */
export function withJson(command: Command, shape?: string): Command {
  return command.option('--json', `print one JSON document${shape ? ` (${shape})` : ''} to stdout, no progress bars`);
}

export function integer(min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`must be an integer from ${min} to ${max}`);
    return n;
  };
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
