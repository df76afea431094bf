import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover, Text, type Key } from 'react-aria-components';
import type { Role } from '../../../../shared/api/auth';
import type { BulkPageOperation } from '../../../../shared/api/pages';
import { FormDialog } from '../../../components/ui/dialog';
import { ChevronDownIcon } from '../../../components/ui/icons';
import { toast } from '../../../components/ui/toast';
import { useApi } from '../../../lib/api';
import { pagesKeys } from '../../../lib/query-keys';
import type { ExplorerItem } from '../../../lib/tree/items';

const RANK: Record<Role, number> = { Viewer: 0, Contributor: 1, Editor: 2, Admin: 3 };

const OPERATIONS: readonly {
  id: BulkPageOperation;
  label: string;
  description: string;
  confirm: string;
  minRole: Role;
}[] = [
  {
    id: 'submit-all',
    label: 'Submit all pages for review',
    description: 'Every draft page below goes to an editor.',
    confirm: 'Submit for review',
    minRole: 'Contributor',
  },
  {
    id: 'approve-all',
    label: 'Approve all pages',
    description: 'Every page below in Draft, Review or Quick Edit goes live (archived ones stay archived).',
    confirm: 'Approve all',
    minRole: 'Editor',
  },
  {
    id: 'archive-all',
    label: 'Archive all pages',
    description: 'Every live page below is taken off the site.',
    confirm: 'Archive all',
    minRole: 'Editor',
  },
];

/**
 * The folder screen's bulk workflow: submit, approve or archive every page below a site, section or folder
 * (the service's bulk endpoints), each confirmed first. Only what the user's role may do is offered.
 */
export function BulkWorkflowMenu({ item, role }: { item: ExplorerItem; role: Role }) {
  const client = useApi();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<(typeof OPERATIONS)[number] | null>(null);
  const run = useMutation({
    mutationFn: (op: BulkPageOperation) => client.pages.bulk(op, item.segments),
    onSuccess: (answer) => {
      setChosen(null);
      void queryClient.invalidateQueries({ queryKey: pagesKeys.all });
      toast.success(answer.message, `Below “${item.name}”.`);
    },
    meta: { errorToast: false },
  });
  const offered = OPERATIONS.filter((o) => RANK[role] >= RANK[o.minRole]);
  if (offered.length === 0) return null;
  return (
    <>
      <MenuTrigger>
        <AriaButton className="btn btn--secondary btn--md">
          Page workflow <ChevronDownIcon />
        </AriaButton>
        <Popover className="popover" placement="bottom end" offset={4}>
          <Menu
            className="menu"
            aria-label={`Workflow of the pages below ${item.name}`}
            onAction={(key: Key) => {
              run.reset();
              setChosen(OPERATIONS.find((o) => o.id === key) ?? null);
            }}
          >
            {offered.map((o) => (
              <MenuItem key={o.id} id={o.id} textValue={o.label} className="menu__item">
                <Text slot="label" className="menu__label">
                  {o.label}
                </Text>
                <Text slot="description" className="listbox__description">
                  {o.description}
                </Text>
              </MenuItem>
            ))}
          </Menu>
        </Popover>
      </MenuTrigger>
      {chosen && (
        <FormDialog
          isOpen
          onOpenChange={(open) => {
            if (!open) setChosen(null);
          }}
          title={`${chosen.label} below “${item.name}”?`}
          description={chosen.description}
          submitLabel={chosen.confirm}
          variant={chosen.id === 'archive-all' ? 'danger' : 'primary'}
          onSubmit={() => run.mutate(chosen.id)}
          isPending={run.isPending}
          error={run.error}
        >
          <p className="card__muted">
            This acts on every page in <code>{item.path}</code> and all its sections and folders that you may change.
          </p>
        </FormDialog>
      )}
    </>
  );
}
