import type { TemplateSummary } from '../../../../shared/api/templates';
import { isApiError } from '../../../../shared/api/client';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { useDeleteTemplate } from '../api/templates';
import { TemplateUsageList, type TemplateLinks } from './template-usage';

/**
 * Asks before deleting a template. The service refuses one that pages or sections use (409 TEMPLATE_IN_USE):
 * the dialog then lists them, as links, so the admin can change them first.
 */
export function DeleteTemplateDialog({
  template,
  links,
  onClose,
}: {
  template: TemplateSummary;
  links: TemplateLinks;
  /** `deleted`: the template is gone. */
  onClose: (deleted: boolean) => void;
}) {
  const remove = useDeleteTemplate();
  const inUse = isApiError(remove.error, 409) && remove.error.code === 'TEMPLATE_IN_USE';
  return (
    <ConfirmDialog
      isOpen
      onOpenChange={(open) => !open && onClose(false)}
      title={`Delete template “${template.label}”?`}
      confirmLabel="Delete template"
      isPending={remove.isPending}
      isConfirmDisabled={inUse}
      error={remove.error && !inUse ? remove.error : undefined}
      onConfirm={() =>
        remove.mutate(
          { name: template.name },
          {
            onSuccess: () => {
              toast.success(`Deleted template “${template.label}”`);
              onClose(true);
            },
          },
        )
      }
    >
      {inUse ? (
        <>
          <p role="alert">{isApiError(remove.error) ? remove.error.detail : ''} Nothing was deleted.</p>
          <TemplateUsageList
            name={template.name}
            links={links}
            title="Give these another template first, then delete it."
          />
        </>
      ) : (
        <p>
          Pages can no longer be made from <strong>{template.label}</strong> (<code>{template.name}</code>). Folio
          refuses if any page or section still uses it. This cannot be undone.
        </p>
      )}
    </ConfirmDialog>
  );
}
