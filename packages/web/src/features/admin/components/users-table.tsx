import { labels, messages } from '@furniture/contract';
import { useQuery } from '@tanstack/react-query';
import { Spinner } from '../../../components/spinner.tsx';
import { useDeleteUser } from '../api/delete-user.ts';
import { usersQuery, type ListedRole } from '../api/get-users.ts';
import { useVerifyUser } from '../api/verify-user.ts';
import { notify } from '../../../lib/notify.ts';

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
      {isPending ? (
        <Spinner />
      ) : !users?.length ? (
        <p>No accounts yet.</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Image</th>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Status</th>
                <th scope="col">Verify</th>
                <th scope="col">{labels.table.delete}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((user) => (
                <tr key={user._id}>
                  <td>
                    {user.image ? (
                      <img src={user.image} alt={user.name} className="h-10 w-10 rounded-full object-cover" />
                    ) : (
                      <span className="sr-only">No photo</span>
                    )}
                  </td>
                  <td>{user.name}</td>
                  <td>{user.email}</td>
                  <td>
                    <span className={`badge ${user.verified ? 'badge-success' : 'badge-warning'}`}>
                      {user.verified ? labels.userStatus.verified : labels.userStatus.pending}
                    </span>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-primary btn-sm"
                      aria-label={`Verify ${user.email}`}
                      disabled={user.verified || (verify.isPending && verify.variables === user.email)}
                      onClick={() => handleVerify(user.email)}
                    >
                      Verify
                    </button>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-error btn-sm"
                      aria-label={`${labels.table.delete} ${user.email}`}
                      disabled={remove.isPending && remove.variables === user.email}
                      onClick={() => handleDelete(user.email)}
                    >
                      {labels.table.delete}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
