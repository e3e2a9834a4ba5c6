import type { Command } from 'commander';

/** Adds an "Examples:" block to the command's --help (every command has one; test/help.test.ts checks). */
export function examples(cmd: Command, ...lines: string[]): Command {
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`);
}
