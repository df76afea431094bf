import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { ContainerPicker } from '../../components/tree/container-picker';

/**
 * Choosing a place in a site (a site, section or folder) — or, with `pages`, a page: a tree of the sites, opened
 * at the current value.
 */
export function SitePathDialog({
  title,
  current,
  pages = false,
  onChoose,
  onCancel,
}: {
  title: string;
  current?: string | null;
  pages?: boolean;
  onChoose: (path: string) => void;
  onCancel: () => void;
}) {
  const [path, setPath] = useState<string | null>(pages ? null : current || null);
  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && onCancel()}
      title={title}
      size="md"
      description={pages ? 'Open the sites and choose a page.' : 'Open the sites and choose a site, section or folder.'}
      footer={
        <>
          <Button variant="quiet" onPress={onCancel}>
            Cancel
          </Button>
          <Button variant="primary" isDisabled={!path} onPress={() => path && onChoose(path)}>
            Choose
          </Button>
        </>
      }
    >
      <ContainerPicker
        label={pages ? 'Sites and their pages' : 'Sites, sections and folders'}
        realm="sites"
        keep={(item) =>
          item.kind === 'site' || item.kind === 'section' || item.kind === 'folder' || (pages && item.kind === 'page')
        }
        selectedPath={path}
        onSelect={(item) => setPath(!pages || item.kind === 'page' ? item.path : null)}
        initiallyExpanded={current || undefined}
      />
      <p className="dialog__description" aria-live="polite">
        {path ? (
          <>
            Chosen: <strong>{path}</strong>
          </>
        ) : (
          'Nothing chosen yet.'
        )}
      </p>
    </Modal>
  );
}
