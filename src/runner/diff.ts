/** The diff output of `apply --diff` and the playground: one unified diff of a text before and after. */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';

/** A unified diff (3 lines of context) naming the file `a/<shown>` and `b/<shown>`, as `git apply` and `patch -p1` read it. */
export function unifiedPatch(shown: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${shown}`, `b/${shown}`, before, after, '', '', { context: 3, headerOptions: FILE_HEADERS_ONLY });
}
