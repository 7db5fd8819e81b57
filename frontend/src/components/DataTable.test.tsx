import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/renderWithProviders';
import { DataTable, pickFilterColumn, type DataTableColumn } from './DataTable';

interface Person {
  id: string;
  name: string;
  email: string;
  age: number;
}

const columns: DataTableColumn<Person>[] = [
  { key: 'email', title: 'Email', value: (p) => p.email },
  { key: 'name', title: 'Name', value: (p) => p.name },
  { key: 'age', title: 'Age', value: (p) => p.age },
  { key: 'actions', title: 'Actions', render: () => 'menu' },
];

const people: Person[] = Array.from({ length: 23 }, (_, i) => ({
  id: `p${i}`,
  name: `Person ${String(i).padStart(2, '0')}`,
  email: `person${i}@example.com`,
  age: 100 - i,
}));

function renderTable(props: Partial<Parameters<typeof DataTable<Person>>[0]> = {}) {
  renderWithProviders(
    <DataTable<Person> label="People" columns={columns} data={people} rowKey={(p) => p.id} {...props} />,
  );
  return screen.getByRole('table');
}

const bodyRows = () =>
  screen
    .getAllByRole('row')
    .filter((row) => within(row).queryAllByRole('cell').length > 0)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('DataTable', () => {
  it('filters on the name column by default, and on the column it is given', async () => {
    renderTable();
    const user = userEvent.setup();
    const box = screen.getByPlaceholderText('Filter by Name...');
    await user.type(box, 'person 1');
    expect(bodyRows().map((r) => r[1])).toEqual([
      'Person 10',
      'Person 11',
      'Person 12',
      'Person 13',
      'Person 14',
      'Person 15',
      'Person 16',
      'Person 17',
      'Person 18',
      'Person 19',
    ]);
  });

  it('picks the given column, else name, else the first filterable one', () => {
    expect(pickFilterColumn(columns, 'email')?.title).toBe('Email');
    expect(pickFilterColumn(columns)?.title).toBe('Name');
    expect(pickFilterColumn(columns.filter((c) => c.key !== 'name'))?.title).toBe('Email');
    expect(pickFilterColumn([{ key: 'x', title: 'X', render: () => null }])).toBeUndefined();
  });

  it('pages by 10 with Previous and Next', async () => {
    renderTable();
    const user = userEvent.setup();
    const previous = screen.getByRole('button', { name: 'Previous' });
    const next = screen.getByRole('button', { name: 'Next' });
    expect(bodyRows()).toHaveLength(10);
    expect(previous).toBeDisabled();
    await user.click(next);
    expect(bodyRows()[0]?.[1]).toBe('Person 10');
    await user.click(next);
    expect(bodyRows()).toHaveLength(3);
    expect(next).toBeDisabled();
    await user.click(previous);
    expect(bodyRows()[0]?.[1]).toBe('Person 10');
  });

  it('sorts by a column, ascending then descending, over every page', async () => {
    renderTable();
    const user = userEvent.setup();
    await user.click(within(screen.getByRole('columnheader', { name: /^Age/ })).getByText('Age'));
    expect(bodyRows()[0]?.[2]).toBe('78');
    await user.click(within(screen.getByRole('columnheader', { name: /^Age/ })).getByText('Age'));
    expect(bodyRows()[0]?.[2]).toBe('100');
  });

  it("says 'No results.' when nothing matches", async () => {
    renderTable();
    await userEvent.setup().type(screen.getByPlaceholderText('Filter by Name...'), 'nobody');
    expect(screen.getByText('No results.')).toBeInTheDocument();
  });

  it('shows a spinner while loading', () => {
    const table = renderTable({ data: [], loading: true });
    expect(table.closest('.ant-spin-nested-loading')?.querySelector('.ant-spin')).not.toBeNull();
    expect(screen.queryByText('No results.')).not.toBeInTheDocument();
  });

  it('resizes columns from 150 px, never under 20 px', async () => {
    renderTable();
    const user = userEvent.setup();
    const handle = screen.getByRole('separator', { name: 'Resize Name' });
    expect(handle).toHaveAttribute('aria-valuenow', '150');
    handle.focus();
    await user.keyboard('{ArrowRight}');
    expect(handle).toHaveAttribute('aria-valuenow', '160');
    for (let i = 0; i < 20; i += 1) await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('separator', { name: 'Resize Name' })).toHaveAttribute('aria-valuenow', '20');
  });
});
