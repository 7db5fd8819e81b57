import { Button, Flex, Input, Table, Typography, theme, type TableColumnType } from 'antd';
import type { SortOrder } from 'antd/es/table/interface';
import {
  useMemo,
  useState,
  type KeyboardEvent,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
  type ThHTMLAttributes,
} from 'react';

/** Spec section 9: page size 10; column width 150 by default, at least 20. */
export const DATA_TABLE_PAGE_SIZE = 10;
export const DEFAULT_COLUMN_WIDTH = 150;
export const MIN_COLUMN_WIDTH = 20;
const KEYBOARD_RESIZE_STEP = 10;

export type CellValue = string | number | boolean | null | undefined;

export interface DataTableColumn<T> {
  key: string;
  /** The header; also names the filter box ('Filter by {title}...'). */
  title: string;
  /** The cell's plain value, used to filter and sort (and shown when there is no `render`). */
  value?: (row: T) => CellValue;
  render?: (row: T) => ReactNode;
  /** Default: true when the column has a value. */
  sortable?: boolean;
  /** Default: true when the column has a value. */
  filterable?: boolean;
  /** Initial width in px (default 150). */
  width?: number;
}

export interface DataTableProps<T> {
  columns: DataTableColumn<T>[];
  data: T[];
  rowKey: (row: T) => string;
  loading?: boolean;
  /** The column the text filter searches; else 'name', else the first filterable column. */
  filterColumn?: string;
  /** More controls beside the filter box (a status filter, say). */
  toolbar?: ReactNode;
  /** The table's accessible name. */
  label: string;
  /**
   * A list the server filters and pages (too long to load whole): the filter box's text is handed to
   * `onFilterChange` (no filtering here), and Next past the last loaded row asks `onLoadMore` for more.
   */
  server?: {
    filter: string;
    onFilterChange: (text: string) => void;
    hasMore: boolean;
    loadingMore?: boolean;
    onLoadMore: () => void;
  };
}

interface SortState {
  key: string;
  order: Exclude<SortOrder, null>;
}

function compareValues(a: CellValue, b: CellValue): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? -1 : 1;
  return String(a).localeCompare(String(b), undefined, { sensitivity: 'base', numeric: true });
}

const isFilterable = <T,>(column: DataTableColumn<T>) => column.filterable ?? !!column.value;

/** Which column the text filter searches (spec: the given one, else 'name', else the first filterable). */
export function pickFilterColumn<T>(
  columns: DataTableColumn<T>[],
  requested?: string,
): DataTableColumn<T> | undefined {
  const filterable = columns.filter(isFilterable);
  return (
    filterable.find((c) => c.key === requested) ?? filterable.find((c) => c.key === 'name') ?? filterable[0]
  );
}

interface ResizableHeaderCellProps extends ThHTMLAttributes<HTMLTableCellElement> {
  width?: number;
  columnTitle?: string;
  onResize?: (width: number) => void;
}

/** A header cell with a drag handle (and arrow keys) on its right edge. */
function ResizableHeaderCell({
  width,
  columnTitle,
  onResize,
  children,
  style,
  ...rest
}: ResizableHeaderCellProps) {
  const { token } = theme.useToken();
  if (!onResize || width === undefined)
    return (
      <th {...rest} style={style}>
        {children}
      </th>
    );

  const startDrag = (event: ReactPointerEvent<HTMLSpanElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const startX = event.clientX;
    const startWidth = width;
    const move = (e: PointerEvent) => onResize(Math.max(MIN_COLUMN_WIDTH, startWidth + e.clientX - startX));
    const stop = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', stop);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', stop);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    event.stopPropagation();
    const delta = event.key === 'ArrowLeft' ? -KEYBOARD_RESIZE_STEP : KEYBOARD_RESIZE_STEP;
    onResize(Math.max(MIN_COLUMN_WIDTH, width + delta));
  };

  return (
    <th {...rest} style={{ ...style, position: 'relative' }}>
      {children}
      <span
        role="separator"
        aria-orientation="vertical"
        aria-label={`Resize ${columnTitle ?? 'column'}`}
        aria-valuenow={width}
        aria-valuemin={MIN_COLUMN_WIDTH}
        tabIndex={0}
        onPointerDown={startDrag}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={onKeyDown}
        style={{
          position: 'absolute',
          top: 0,
          right: -4,
          width: 8,
          height: '100%',
          cursor: 'col-resize',
          zIndex: 1,
          touchAction: 'none',
          borderRight: `2px solid ${token.colorBorderSecondary}`,
        }}
      />
    </th>
  );
}

/**
 * The spec's generic data table, used by every admin table: a text filter on one column, sorting,
 * Previous/Next pages of 10, a spinner while loading, 'No results.' when empty, resizable columns.
 * Filtering, sorting and paging happen here over the whole list (the lists are a company's, and small).
 */
export function DataTable<T>({
  columns,
  data,
  rowKey,
  loading,
  filterColumn,
  toolbar,
  label,
  server,
}: DataTableProps<T>) {
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortState | null>(null);
  const [page, setPage] = useState(0);
  const [widths, setWidths] = useState<Record<string, number>>({});

  const filterBy = pickFilterColumn(columns, filterColumn);

  const rows = useMemo(() => {
    const needle = server ? '' : filter.trim().toLowerCase();
    let result =
      needle && filterBy?.value
        ? data.filter((row) =>
            String(filterBy.value?.(row) ?? '')
              .toLowerCase()
              .includes(needle),
          )
        : data;
    const sortColumn = sort && columns.find((c) => c.key === sort.key);
    if (sort && sortColumn?.value) {
      const read = sortColumn.value;
      const direction = sort.order === 'ascend' ? 1 : -1;
      result = [...result].sort((a, b) => direction * compareValues(read(a), read(b)));
    }
    return result;
  }, [data, filter, filterBy, sort, columns, server]);

  const pageCount = Math.max(1, Math.ceil(rows.length / DATA_TABLE_PAGE_SIZE));
  // Rows that went away (a filter, a live removal) must not leave the view on an empty page.
  const currentPage = Math.min(page, pageCount - 1);
  const more = server?.hasMore ? '+' : '';
  const pageRows = rows.slice(currentPage * DATA_TABLE_PAGE_SIZE, (currentPage + 1) * DATA_TABLE_PAGE_SIZE);

  const tableColumns: TableColumnType<T>[] = columns.map((column) => {
    const width = widths[column.key] ?? column.width ?? DEFAULT_COLUMN_WIDTH;
    const sortable = column.sortable ?? !!column.value;
    return {
      key: column.key,
      title: column.title,
      width,
      ellipsis: false,
      sorter: sortable,
      sortOrder: sort?.key === column.key ? sort.order : null,
      sortDirections: ['ascend', 'descend'],
      render: (_: unknown, row: T) =>
        column.render ? column.render(row) : String(column.value?.(row) ?? ''),
      onHeaderCell: () =>
        ({
          width,
          columnTitle: column.title,
          onResize: (next: number) => setWidths((current) => ({ ...current, [column.key]: next })),
        }) as ResizableHeaderCellProps,
    };
  });

  return (
    <Flex vertical gap="middle">
      <Flex gap="small" wrap align="center">
        {filterBy && (
          <Input
            allowClear
            placeholder={`Filter by ${filterBy.title}...`}
            aria-label={`Filter by ${filterBy.title}`}
            value={server ? server.filter : filter}
            onChange={(e) => {
              if (server) server.onFilterChange(e.target.value);
              else setFilter(e.target.value);
              setPage(0);
            }}
            style={{ maxWidth: 320 }}
          />
        )}
        {toolbar}
      </Flex>
      <Table<T>
        aria-label={label}
        columns={tableColumns}
        dataSource={pageRows}
        rowKey={rowKey}
        loading={loading}
        pagination={false}
        tableLayout="fixed"
        scroll={{ x: 'max-content' }}
        components={{ header: { cell: ResizableHeaderCell } }}
        locale={{ emptyText: loading ? ' ' : 'No results.' }}
        showSorterTooltip={false}
        onChange={(_pagination, _filters, sorter) => {
          const one = Array.isArray(sorter) ? sorter[0] : sorter;
          const key = one?.columnKey === undefined ? null : String(one.columnKey);
          setSort(key && one?.order ? { key, order: one.order } : null);
          setPage(0);
        }}
      />
      <Flex justify="space-between" align="center" gap="small" wrap>
        <Typography.Text type="secondary">
          {rows.length === 0
            ? '0 rows'
            : `Page ${currentPage + 1} of ${pageCount}${more} (${rows.length}${more} rows)`}
        </Typography.Text>
        <Flex gap="small">
          <Button onClick={() => setPage(currentPage - 1)} disabled={currentPage === 0}>
            Previous
          </Button>
          <Button
            onClick={() => {
              // Past the rows loaded: the server's next page, shown once it arrives.
              if (server?.hasMore && currentPage >= pageCount - 2) server.onLoadMore();
              setPage(currentPage + 1);
            }}
            disabled={currentPage >= pageCount - 1 && !server?.hasMore}
            loading={!!server?.loadingMore && currentPage >= pageCount - 1}
          >
            Next
          </Button>
        </Flex>
      </Flex>
    </Flex>
  );
}
