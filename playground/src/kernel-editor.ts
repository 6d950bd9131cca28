// The kernel editor's behaviour: Python highlighting and indentation in the file's own indent
// unit (as the rewriter infers it, 4 spaces by default), Tab indents, long lines wrap (so no
// line's start is ever scrolled out of sight).

import { indentWithTab } from '@codemirror/commands';
import { python } from '@codemirror/lang-python';
import { indentUnit } from '@codemirror/language';
import { Compartment, EditorState, type Extension, RangeSetBuilder, type Transaction, type TransactionSpec } from '@codemirror/state';
import { Decoration, type DecorationSet, EditorView, keymap, ViewPlugin, type ViewUpdate } from '@codemirror/view';
import { indentUnit as fileIndentUnit } from '../../src/rewrite/patch.js';

const unit = new Compartment();

/** A transaction that replaces the kernel wholesale (an example, a shared link, a paste): its unit is read again. */
const readsUnitAgain = (tr: Transaction): boolean =>
  tr.docChanged && (tr.isUserEvent('input.paste') || tr.isUserEvent('load') || tr.isUserEvent('input.fix'));

/**
 * Wrapped lines hang: the rest of a long line starts one unit right of the line's own indentation
 * (so a wrapped tail never reads as a statement of its own).
 */
const hangingIndent = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = this.build(view);
    }
    update(u: ViewUpdate): void {
      if (u.docChanged || u.viewportChanged) this.decorations = this.build(u.view);
    }
    build(view: EditorView): DecorationSet {
      const b = new RangeSetBuilder<Decoration>();
      const extra = view.state.facet(indentUnit).length;
      for (const { from, to } of view.visibleRanges) {
        for (let pos = from; pos <= to; ) {
          const line = view.state.doc.lineAt(pos);
          const n = /^ */.exec(line.text)![0].length + extra;
          b.add(line.from, line.from, Decoration.line({ attributes: { style: `padding-left: calc(${n}ch + 6px); text-indent: -${n}ch` } }));
          pos = line.to + 1;
        }
      }
      return b.finish();
    }
  },
  { decorations: (p) => p.decorations },
);

/** The extensions of the kernel editor holding `doc` (indent unit taken from `doc`). */
export function kernelExtensions(doc: string): Extension[] {
  return [
    python(),
    EditorView.lineWrapping,
    hangingIndent,
    unit.of(indentUnit.of(fileIndentUnit(doc))),
    keymap.of([indentWithTab]),
    // The unit follows the file when a whole new text arrives, not while the user types an
    // indentation space by space.
    EditorState.transactionExtender.of((tr) => {
      if (!readsUnitAgain(tr)) return null;
      const next = fileIndentUnit(tr.newDoc.toString());
      return next === tr.startState.facet(indentUnit) ? null : { effects: unit.reconfigure(indentUnit.of(next)) };
    }),
  ];
}

/** A transaction spec that replaces the whole kernel by `text` (undoable; re-reads the indent unit). */
export function loadText(view: EditorView, text: string): TransactionSpec {
  return {
    changes: { from: 0, to: view.state.doc.length, insert: text },
    selection: { anchor: 0 },
    scrollIntoView: true,
    userEvent: 'load',
  };
}
