import { labels, messages, trustWebTexts, uiTexts, type ManagedUser } from '@furniture/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import { DataTable, DeleteButton, type Column } from '../../../components/data-table.tsx';
import { Modal } from '../../../components/modal.tsx';
import { useDeleteUser } from '../api/delete-user.ts';
import { USERS_PAGE_SIZE, usersQuery, type ListedRole } from '../api/get-users.ts';
import { useRemoveAdmin } from '../api/remove-admin.ts';
import { useUnverifyUser } from '../api/unverify-user.ts';
import { useVerifyUser } from '../api/verify-user.ts';
import { errorMessage, notify } from '../../../lib/notify.ts';
import { thumbnailOf } from '../../../lib/image-sources.ts';

/** An act that waits for the admin's confirmation, and on whom. */
type Confirming = { act: 'unverify' | 'removeAdmin'; user: ManagedUser };

const confirmTexts = { unverify: uiTexts.confirmUnverify, removeAdmin: uiTexts.confirmRemoveAdmin };

/**
 * Buyers, sellers or admins with their status, searched by name or e-mail on the server a page at
 * a time; verify, take back a verification and delete (buyers and sellers, with the toasts of
 * section 8), or remove admin rights (admins). Taking something back asks first, naming the person.
 */
export function UsersTable({ role, title, heading: Heading = 'h1' }: { role: ListedRole; title: string; heading?: 'h1' | 'h2' }) {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const deferredSearch = useDeferredValue(search.trim());
  // The page shown stays while the next one loads, so the table does not jump as one types.
  const { data: users, isPending } = useQuery({ ...usersQuery(role, { search: deferredSearch, page }), placeholderData: keepPreviousData });
  const verify = useVerifyUser();
  const unverify = useUnverifyUser();
  const removeAdmin = useRemoveAdmin();
  const remove = useDeleteUser();
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const searchId = useId();

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

  async function handleConfirmed({ act, user }: Confirming) {
    try {
      const response = await (act === 'unverify' ? unverify : removeAdmin).mutateAsync(user.email);
      notify.success(response.message);
    } catch (error) {
      notify.error(errorMessage(error));
    }
    setConfirming(null);
  }

  const statusColumns: Column<ManagedUser>[] = [
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
    { header: uiTexts.users.columns.email, cell: (user) => <span className="break-all">{user.email}</span> },
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
  ];
  const adminColumns: Column<ManagedUser>[] = [
    {
      header: uiTexts.users.adminRights,
      cell: (user) => (
        <button type="button" className="btn btn-outline btn-sm h-auto shrink whitespace-normal" onClick={() => setConfirming({ act: 'removeAdmin', user })}>
          {uiTexts.users.removeAdmin}
        </button>
      ),
    },
  ];
  const accountColumns: Column<ManagedUser>[] = [
    {
      header: uiTexts.users.verify,
      cell: (user) =>
        user.verified ? (
          <button type="button" className="btn btn-outline btn-sm" onClick={() => setConfirming({ act: 'unverify', user })}>
            {uiTexts.users.unverify}
          </button>
        ) : (
          <button
            type="button"
            className="btn btn-primary btn-sm"
            aria-label={`Verify ${user.email}`}
            disabled={verify.isPending && verify.variables === user.email}
            onClick={() => handleVerify(user.email)}
          >
            {uiTexts.users.verify}
          </button>
        ),
    },
    {
      header: labels.table.delete,
      cell: (user) => (
        <DeleteButton name={user.email} disabled={remove.isPending && remove.variables === user.email} onConfirm={() => handleDelete(user.email)} />
      ),
    },
  ];

  const texts = confirming && confirmTexts[confirming.act];
  const busy = unverify.isPending || removeAdmin.isPending;
  return (
    <section aria-labelledby={`${role}s-title`}>
      <Heading id={`${role}s-title`} className="mb-6 text-2xl font-bold">
        {title}
      </Heading>
      <div className="mb-4 flex max-w-md flex-col gap-1">
        <label htmlFor={searchId} className="text-sm font-medium">
          {uiTexts.users.search}
        </label>
        <input
          id={searchId}
          type="search"
          className="input input-bordered w-full"
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
        />
      </div>
      <DataTable
        columns={[...statusColumns, ...(role === 'admin' ? adminColumns : accountColumns)]}
        rows={users}
        isPending={isPending}
        empty={{ text: deferredSearch ? uiTexts.users.noMatch(deferredSearch) : uiTexts.emptyLists.accounts }}
      />
      {(page > 1 || users?.length === USERS_PAGE_SIZE) && (
        <nav aria-label={uiTexts.users.pages} className="mt-4 flex items-center gap-3">
          <button type="button" className="btn btn-sm" disabled={page === 1} onClick={() => setPage(page - 1)}>
            {uiTexts.users.previousPage}
          </button>
          <span>{uiTexts.users.pageNumber(page)}</span>
          <button type="button" className="btn btn-sm" disabled={users?.length !== USERS_PAGE_SIZE} onClick={() => setPage(page + 1)}>
            {uiTexts.users.nextPage}
          </button>
        </nav>
      )}
      <Modal title={confirming && texts ? texts.title(confirming.user.name, confirming.user.email) : ''} open={confirming !== null} onClose={() => setConfirming(null)}>
        <p>{texts?.body}</p>
        <div className="modal-action">
          <button type="button" className="btn" data-autofocus onClick={() => setConfirming(null)}>
            {texts?.cancel}
          </button>
          <button type="button" className="btn btn-error" disabled={busy} onClick={() => void (confirming && handleConfirmed(confirming))}>
            {texts?.confirm}
          </button>
        </div>
      </Modal>
    </section>
  );
}
