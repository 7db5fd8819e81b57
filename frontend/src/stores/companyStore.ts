import { create } from 'zustand';
import type { CompanyMembership } from '../api/contracts';

export const CURRENT_COMPANY_STORAGE_KEY = 'currentCompanyId';

/** The company this browser used last (it may no longer be one of the user's). */
export function readStoredCompanyId(): string | null {
  try {
    return localStorage.getItem(CURRENT_COMPANY_STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeCompanyId(id: string | null): void {
  try {
    if (id) localStorage.setItem(CURRENT_COMPANY_STORAGE_KEY, id);
    else localStorage.removeItem(CURRENT_COMPANY_STORAGE_KEY);
  } catch {
    // Storage can be unavailable; the selection still holds for this tab.
  }
}

interface CompanyState {
  companies: CompanyMembership[];
  currentCompanyId: string | null;
  /** Replaces the membership list and picks the stored company if still a member, else the first. */
  setCompanies: (companies: CompanyMembership[]) => void;
  /** Adds or updates one membership (e.g. after a fresh load of its role). */
  upsertCompany: (company: CompanyMembership) => void;
  setCurrentCompany: (id: string) => void;
  /** Drops a membership (the user was removed); if it was current, the first remaining one becomes current. */
  removeCompany: (id: string) => void;
  renameCompany: (id: string, name: string) => void;
  /** The company requires single sign-on from this session, or no longer does. */
  setSsoRequired: (id: string, required: boolean) => void;
  reset: () => void;
}

export const useCompanyStore = create<CompanyState>((set, get) => ({
  companies: [],
  currentCompanyId: null,
  setCompanies(companies) {
    const stored = readStoredCompanyId();
    const current = companies.find((c) => c.id === stored) ?? companies[0] ?? null;
    if (current) storeCompanyId(current.id);
    set({ companies, currentCompanyId: current?.id ?? null });
  },
  upsertCompany(company) {
    const exists = get().companies.some((c) => c.id === company.id);
    set({
      companies: exists
        ? get().companies.map((c) => (c.id === company.id ? company : c))
        : [...get().companies, company],
    });
  },
  setCurrentCompany(id) {
    storeCompanyId(id);
    set({ currentCompanyId: id });
  },
  removeCompany(id) {
    const companies = get().companies.filter((c) => c.id !== id);
    let currentCompanyId = get().currentCompanyId;
    if (currentCompanyId === id) {
      currentCompanyId = companies[0]?.id ?? null;
      storeCompanyId(currentCompanyId);
    }
    set({ companies, currentCompanyId });
  },
  renameCompany(id, name) {
    set({ companies: get().companies.map((c) => (c.id === id ? { ...c, name } : c)) });
  },
  setSsoRequired(id, required) {
    const company = get().companies.find((c) => c.id === id);
    if (!company || !!company.ssoRequired === required) return;
    const { ssoRequired: _dropped, ...rest } = company;
    set({
      companies: get().companies.map((c) =>
        c.id === id ? (required ? { ...rest, ssoRequired: true } : rest) : c,
      ),
    });
  },
  reset() {
    // The stored id is kept on purpose: it is per browser, and reused if the same user signs in again.
    set({ companies: [], currentCompanyId: null });
  },
}));

export function selectCurrentCompany(state: {
  companies: CompanyMembership[];
  currentCompanyId: string | null;
}): CompanyMembership | null {
  return state.companies.find((c) => c.id === state.currentCompanyId) ?? null;
}

export function useCurrentCompany(): CompanyMembership | null {
  return useCompanyStore(selectCurrentCompany);
}
