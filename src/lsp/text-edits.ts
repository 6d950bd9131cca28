import { diffLines } from 'diff';
import type { TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';

/** Line-level edits that turn `doc`'s text into `next` (applied together, they give exactly `next`). */
export function textEdits(doc: TextDocument, next: string): TextEdit[] {
  const edits: TextEdit[] = [];
  let offset = 0;
  let pending: { start: number; end: number; text: string } | undefined;
  const flush = (): void => {
    if (!pending) return;
    edits.push({ range: { start: doc.positionAt(pending.start), end: doc.positionAt(pending.end) }, newText: pending.text });
    pending = undefined;
  };
  for (const part of diffLines(doc.getText(), next)) {
    if (part.added) {
      pending ??= { start: offset, end: offset, text: '' };
      pending.text += part.value;
    } else if (part.removed) {
      pending ??= { start: offset, end: offset, text: '' };
      offset += part.value.length;
      pending.end = offset;
    } else {
      flush();
      offset += part.value.length;
    }
  }
  flush();
  return edits;
}

/** The edit that adds `# ptolog: ignore[code]` on its own line above 0-based `line` (merged into one already there). */
export function suppressionEdit(doc: TextDocument, line: number, code: string): TextEdit {
  const text = doc.getText();
  const lineText = (l: number): string =>
    text.slice(doc.offsetAt({ line: l, character: 0 }), doc.offsetAt({ line: l + 1, character: 0 })).replace(/\r?\n$/, '');
  const indent = /^[ \t]*/.exec(lineText(line))![0];
  if (line > 0) {
    const above = lineText(line - 1);
    const m = /^([ \t]*)# ptolog: ignore\[([^\]]*)\]\s*$/.exec(above);
    if (m) {
      const codes = m[2]!
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== '');
      if (!codes.includes(code)) codes.push(code);
      return {
        range: { start: { line: line - 1, character: 0 }, end: { line: line - 1, character: above.length } },
        newText: `${m[1]}# ptolog: ignore[${codes.join(', ')}]`,
      };
    }
  }
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return { range: { start: { line, character: 0 }, end: { line, character: 0 } }, newText: `${indent}# ptolog: ignore[${code}]${eol}` };
}
