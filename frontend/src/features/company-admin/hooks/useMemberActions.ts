import { useMemo } from 'react';
import { companyAdminApi } from '../../../api/companyAdminApi';
import type { CompanyRole, MemberView } from '../../../api/contracts';
import { useActionToasts } from '../../../hooks/useActionToasts';
import { fetchAndApply } from '../../../sync/dispatch';
import { useCompanyAdminStore } from '../../../stores/companyAdminStore';

export interface MemberActions {
  changeRole: (member: MemberView, role: CompanyRole) => Promise<boolean>;
  removeMember: (member: MemberView) => Promise<boolean>;
}

/** Change Role and Remove on the Company Users page; the member's own screens follow by event. */
export function useMemberActions(): MemberActions {
  const toasts = useActionToasts();

  return useMemo(() => {
    const { companyOrToast, success, failure } = toasts;
    const isCurrent = (companyId: string) => useCompanyAdminStore.getState().companyId === companyId;
    return {
      async changeRole(member, role) {
        const companyId = companyOrToast();
        if (!companyId) return false;
        try {
          await fetchAndApply(
            () => companyAdminApi.changeRole(companyId, member.userId, role),
            (saved) => {
              if (isCurrent(companyId)) useCompanyAdminStore.getState().upsertMember(saved);
            },
          );
          success('Role updated', `${member.name} is now ${role === 'admin' ? 'an' : 'a'} ${role}.`);
          return true;
        } catch (error) {
          failure('Failed to update role', error, 'Please try again later.');
          return false;
        }
      },

      async removeMember(member) {
        const companyId = companyOrToast();
        if (!companyId) return false;
        try {
          await companyAdminApi.removeMember(companyId, member.userId);
          if (isCurrent(companyId)) useCompanyAdminStore.getState().removeMember(member.userId);
          success('Member removed', `${member.name} no longer belongs to this company.`);
          return true;
        } catch (error) {
          failure('Failed to remove member', error, 'Please try again later.');
          return false;
        }
      },
    };
  }, [toasts]);
}
