import { NotFound } from '../../../components/ui/not-found';
import { ancestorPathsOf, itemAt } from '../../../lib/tree/items';
import { useExplorer } from './explorer-context';

/** An item that is not (or no longer) at `path`: the app's "Not found", with a way back to the site it was in. */
export function ItemNotFound({ path }: { path: string }) {
  const { hrefOf, homeHref } = useExplorer();
  const [top] = ancestorPathsOf(path);
  const back = top === undefined ? null : itemAt(top, top === 'Assets' ? 'library' : 'site');
  return (
    <NotFound
      backHref={back ? hrefOf(back) : homeHref}
      backLabel={back ? `Go to “${back.kind === 'library' ? 'Asset library' : back.name}”` : 'Go to the sites'}
    >
      Nothing is at <code>{path}</code>. It may have been moved, renamed or deleted.
    </NotFound>
  );
}
