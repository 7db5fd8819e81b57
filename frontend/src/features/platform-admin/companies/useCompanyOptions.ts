import { useCallback, useEffect, useRef, useState } from 'react';
import { companiesApi } from './companiesApi';

export interface CompanyOption {
  value: string;
  label: string;
}

const SEARCH_DELAY_MS = 250;

/** Companies whose name matches what is typed, for a company filter (the first 20 of the server's search). */
export function useCompanyOptions(): { options: CompanyOption[]; find: (search: string) => void } {
  const [options, setOptions] = useState<CompanyOption[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const request = useRef(0);

  const find = useCallback((search: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const id = ++request.current;
      companiesApi
        .list({ search, limit: 20 })
        .then((page) => {
          if (id === request.current) setOptions(page.companies.map((c) => ({ value: c.id, label: c.name })));
        })
        // The filter is a convenience: a failed lookup only leaves no suggestions.
        .catch(() => undefined);
    }, SEARCH_DELAY_MS);
  }, []);

  useEffect(() => {
    find('');
    return () => clearTimeout(timer.current);
  }, [find]);

  return { options, find };
}
