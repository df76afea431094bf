import { Prec, type Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';

/** A close tag from its start: `</name>`. */
const CLOSE_TAG_AHEAD = /^<\/[\w:.-]+>/;
/** The cursor inside a close tag, after `</` and part of its name … */
const IN_CLOSE_TAG_BEFORE = /<\/[\w:.-]*$/;
/** … with the rest of the name and its `>` after it. */
const IN_CLOSE_TAG_AFTER = /^[\w:.-]*>/;

/**
 * Typing a close tag by hand where the editor already closed the element (`<p>` writes `</p>` after the cursor)
 * types over that close tag instead of writing a second one: `<` then `/` right before `</p>` step into it, and
 * each character that matches the next one of the tag moves past it. Without this, `<p>hi</p>` typed by hand
 * came out as `<p>hi</p></p>`.
 */
export function closeTagOvertype(): Extension {
  return Prec.high(
    EditorView.inputHandler.of((view, from, to, text) => {
      if (view.composing || view.state.readOnly || from !== to || text.length !== 1) return false;
      const { doc } = view.state;
      const line = doc.lineAt(from);
      const before = doc.sliceString(line.from, from);
      const after = doc.sliceString(from, line.to);
      // `<` was typed just before an existing close tag, and now `/`: that `<` and `/` are the close tag's own.
      if (text === '/' && before.endsWith('<') && CLOSE_TAG_AHEAD.test(after)) {
        view.dispatch({
          changes: { from: from - 1, to: from },
          selection: { anchor: from + 1 },
          userEvent: 'input.type',
        });
        return true;
      }
      // Inside a close tag, typing the character that is already next moves past it.
      if (after[0] === text && IN_CLOSE_TAG_BEFORE.test(before) && IN_CLOSE_TAG_AFTER.test(after)) {
        view.dispatch({ selection: { anchor: from + 1 }, userEvent: 'select' });
        return true;
      }
      return false;
    }),
  );
}
