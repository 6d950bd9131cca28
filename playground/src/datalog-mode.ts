// Highlighting of Soufflé-style Datalog (the rule files) for the rules editor: a small stream
// tokenizer, no grammar — comments, strings, numbers, directives, preprocessor lines, relation
// names, variables and the rule operators.
import { StreamLanguage, type StringStream } from '@codemirror/language';

interface DatalogState {
  /** Inside a `/* ... *\/` comment. */
  inComment: boolean;
}

const DIRECTIVE = /^\.(decl|input|output|printsize|type|comp|init|functor|pragma|plan|override|include)\b/;
const TYPE = /^(symbol|number|unsigned|float)\b/;

function token(stream: StringStream, state: DatalogState): string | null {
  if (state.inComment) {
    if (stream.skipTo('*/')) {
      stream.pos += 2;
      state.inComment = false;
    } else stream.skipToEnd();
    return 'blockComment';
  }
  if (stream.eatSpace()) return null;
  if (stream.match('//')) {
    stream.skipToEnd();
    return 'lineComment';
  }
  if (stream.match('/*')) {
    state.inComment = true;
    return token(stream, state) ?? 'blockComment';
  }
  if (stream.sol() && stream.match(/^#\s*\w+/)) {
    stream.skipToEnd();
    return 'processingInstruction';
  }
  if (stream.match(/^"(?:[^"\\]|\\.)*"?/)) return 'string';
  if (stream.match(/^-?(0x[0-9a-fA-F]+|0b[01]+|\d+(\.\d+)?)\b/)) return 'number';
  if (stream.match(DIRECTIVE)) return 'keyword';
  if (stream.match(':-') || stream.match('<=') || stream.match('>=') || stream.match('!=') || stream.match(/^[!=<>+\-*/%]/))
    return 'operator';
  if (stream.match(TYPE)) return 'typeName';
  if (stream.match(/^(count|sum|min|max|mean|nil|true|false|as|cat|strlen|substr|to_string|to_number|contains|match|ord)\b/))
    return 'keyword';
  if (stream.match(/^[A-Z_][\w]*/)) return 'variableName.special';
  if (stream.match(/^[a-z][\w.]*(?=\s*\()/)) return 'variableName.definition';
  if (stream.match(/^[a-z][\w.]*/)) return 'variableName';
  stream.next();
  return null;
}

/** Datalog (Soufflé dialect, as rules/*.dl are written) for a CodeMirror editor. */
export const datalog = StreamLanguage.define<DatalogState>({
  name: 'datalog',
  startState: () => ({ inComment: false }),
  copyState: (s) => ({ ...s }),
  token,
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
});
