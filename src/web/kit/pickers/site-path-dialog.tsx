import { useState } from 'react';
import { Button } from '../../components/ui/button';
import { Modal } from '../../components/ui/dialog';
import { ContainerPicker } from '../../components/tree/container-picker';

/** Choosing a place in a site (a site, section or folder): a tree of the sites, opened at the current value. */
export function SitePathDialog({
  title,
  current,
  onChoose,
  onCancel,
}: {
  title: string;
  current?: string | null;
  onChoose: (path: string) => void;
  onCancel: () => void;
}) {
  const [path, setPath] = useState<string | null>(current || null);
  return (
    <Modal
      isOpen
      onOpenChange={(open) => !open && onCancel()}
      title={title}
      size="md"
      description="Open the sites and choose a site, section or folder."
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
        label="Sites, sections and folders"
        realm="sites"
        keep={(item) => item.kind === 'site' || item.kind === 'section' || item.kind === 'folder'}
        selectedPath={path}
        onSelect={(item) => setPath(item.path)}
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
