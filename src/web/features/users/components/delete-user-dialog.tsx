import type { User } from '../../../../shared/api/auth';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { useDeleteUser } from '../api/delete-user';

/** Asks before deleting a user; the server refuses the last admin and yourself (shown in the dialog). */
export function DeleteUserDialog({ user, onClose }: { user: User; onClose: (deleted: boolean) => void }) {
  const remove = useDeleteUser();
  return (
    <ConfirmDialog
      isOpen
      onOpenChange={(open) => !open && onClose(false)}
      title={`Delete user ${user.username}?`}
      confirmLabel="Delete user"
      isPending={remove.isPending}
      error={remove.error ?? undefined}
      onConfirm={() =>
        remove.mutate(user.username, {
          onSuccess: () => {
            toast.success(`User ${user.username} deleted`);
            onClose(true);
          },
        })
      }
    >
      <p>
        <strong>{user.username}</strong> ({user.role}) can no longer sign in and is signed out everywhere. This cannot
        be undone.
      </p>
    </ConfirmDialog>
  );
}
