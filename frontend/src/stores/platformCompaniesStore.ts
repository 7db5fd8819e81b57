import type { PlatformCompanyView } from '@contracts/platform-admin';
import { create } from 'zustand';
import { appendNew } from './listRows';

interface CompaniesState {
  /** The rows loaded so far for `search`, newest first. */
  companies: PlatformCompanyView[];
  search: string;
  nextCursor: string | null;
  loaded: boolean;
  setFirstPage: (search: string, companies: PlatformCompanyView[], nextCursor: string | null) => void;
  appendPage: (companies: PlatformCompanyView[], nextCursor: string | null) => void;
  /** A company just made: the newest, so first. */
  addCompany: (company: PlatformCompanyView) => void;
  removeCompany: (id: string) => void;
  /** Single sign-on was turned off for a company (it keeps its place). */
  markSsoOff: (id: string) => void;
}

export const usePlatformCompaniesStore = create<CompaniesState>((set, get) => ({
  companies: [],
  search: '',
  nextCursor: null,
  loaded: false,
  setFirstPage(search, companies, nextCursor) {
    set({ search, companies, nextCursor, loaded: true });
  },
  appendPage(companies, nextCursor) {
    set({ companies: appendNew(get().companies, companies, (c) => c.id), nextCursor });
  },
  addCompany(company) {
    const rest = get().companies.filter((c) => c.id !== company.id);
    set({ companies: [company, ...rest] });
  },
  removeCompany(id) {
    set({ companies: get().companies.filter((c) => c.id !== id) });
  },
  markSsoOff(id) {
    set({ companies: get().companies.map((c) => (c.id === id ? { ...c, usesSso: false } : c)) });
  },
}));
