import { labels, messages, trustWebTexts, uiTexts } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { DataTable, DeleteButton } from '../../../components/data-table.tsx';
import { useDeleteUser } from '../api/delete-user.ts';
import { usersQuery, type ListedRole } from '../api/get-users.ts';
import { useVerifyUser } from '../api/verify-user.ts';
import { notify } from '../../../lib/notify.ts';
import { thumbnailOf } from '../../../lib/image-sources.ts';

/** Buyers or sellers with their status, and the verify and delete actions with the toasts of section 8. */
export function UsersTable({ role, title }: { role: ListedRole; title: string }) {
  const { data: users, isPending } = useQuery(usersQuery(role));
  const verify = useVerifyUser();
  const remove = useDeleteUser();

  async function handleVerify(email: string) {
    try {
      await verify.mutateAsync(email);
      notify.success(messages.userVerified(email));
    } catch (error) {
      const serverMessage = error instanceof Error ? error.message : String(error);
      notify.error(messages.userVerifyFailed(serverMessage, email));
    }
  }

  async function handleDelete(email: string) {
    try {
      const response = await remove.mutateAsync(email);
      if (response.deletedCount) notify.success(messages.userDeleted(email));
      else notify.error(messages.userDeleteFailed(email));
    } catch (error) {
      console.error(error);
      notify.error(messages.userDeleteFailed(email));
    }
  }

  return (
    <section aria-labelledby={`${role}s-title`}>
      <h1 id={`${role}s-title`} className="mb-6 text-2xl font-bold">
        {title}
      </h1>
      <DataTable
        columns={[
          {
            header: uiTexts.users.columns.image,
            cell: (user) =>
              user.image ? (
                <img src={thumbnailOf(user.image)} alt={user.name} width={40} height={40} className="h-10 w-10 rounded-full object-cover" />
              ) : (
                <span className="sr-only">{uiTexts.users.noPhoto}</span>
              ),
          },
          { header: uiTexts.users.columns.name, cell: (user) => user.name },
          { header: uiTexts.users.columns.email, cell: (user) => user.email },
          {
            header: uiTexts.users.columns.status,
            cell: (user) => (
              <span className="flex flex-wrap gap-1">
                <span className={`badge ${user.verified ? 'badge-success' : 'badge-warning'}`}>
                  {user.verified ? labels.userStatus.verified : labels.userStatus.pending}
                </span>
                {user.suspended && <span className="badge badge-error">{trustWebTexts.accountSuspendedBadge}</span>}
              </span>
            ),
          },
          {
            header: uiTexts.users.verify,
            cell: (user) => (
              <button
                type="button"
                className="btn btn-primary btn-sm"
                aria-label={`Verify ${user.email}`}
                disabled={user.verified || (verify.isPending && verify.variables === user.email)}
                onClick={() => handleVerify(user.email)}
              >
                {uiTexts.users.verify}
              </button>
            ),
          },
          {
            header: labels.table.delete,
            cell: (user) => (
              <DeleteButton
                name={user.email}
                disabled={remove.isPending && remove.variables === user.email}
                onConfirm={() => handleDelete(user.email)}
              />
            ),
          },
        ]}
        rows={users}
        isPending={isPending}
        empty={{ text: uiTexts.emptyLists.accounts }}
      />
    </section>
  );
}
