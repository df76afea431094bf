import { InlineAlert } from '../../../components/ui/inline-alert';
import { errorMessage, errorTitle } from '../../../lib/errors';
import type { SaveProblem } from '../lib/save-problems';

/**
 * Why the last save did not go through: the server's answer, and each problem named by its widget and field,
 * with a way to go to it.
 */
export function SaveProblemsAlert({
  error,
  problems,
  onGoTo,
}: {
  error: unknown;
  problems: readonly SaveProblem[];
  onGoTo: (problem: SaveProblem) => void;
}) {
  if (error === null && problems.length === 0) return null;
  const title =
    error !== null
      ? `Not saved: ${errorTitle(error)}`
      : `Not saved: ${problems.length} ${problems.length === 1 ? 'field needs' : 'fields need'} your attention`;
  return (
    <InlineAlert title={title}>
      {error !== null && problems.length === 0 && errorMessage(error)}
      {problems.length > 0 && (
        <ul className="save-problems">
          {problems.map((p, i) => (
            <li key={`${p.key}:${p.fieldKey}:${i}`}>
              {p.key !== null ? (
                <button type="button" className="save-problems__where" onClick={() => onGoTo(p)}>
                  {p.where}
                </button>
              ) : (
                <strong>{p.where}</strong>
              )}
              : {p.message}
            </li>
          ))}
        </ul>
      )}
    </InlineAlert>
  );
}
