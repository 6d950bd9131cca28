import { parse, TomlError } from 'smol-toml';
import type { SourceText } from '../report/source.js';

/**
 * Parses a TOML file of the rules tree (a manifest, a diagnostic catalog) into its top-level
 * table; a syntax error goes to `fail` at its offset, with TOML's first message line.
 */
export function parseTomlDoc(source: SourceText, fail: (offset: number, message: string) => never): Record<string, unknown> {
  try {
    return parse(source.text) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError)
      fail(source.lineStart(e.line) + e.column - 1, `invalid TOML: ${e.message.split('\n')[0]!.replace(/^Invalid TOML document: /, '')}`);
    throw e;
  }
}
