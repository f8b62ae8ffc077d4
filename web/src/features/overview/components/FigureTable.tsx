import type { ReactNode } from 'react';

export interface Column<Row> {
  label: string;
  /** Right-aligned, as numbers are. */
  num?: boolean;
  cell: (row: Row) => ReactNode;
}

/**
 * A table of figures with its caption. It takes focus (`tabIndex`): on a phone it scrolls inside its own box
 * (styles.css), which a keyboard must be able to reach.
 */
export function FigureTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
}: {
  caption: string;
  columns: Array<Column<Row>>;
  rows: Row[];
  rowKey: (row: Row) => string;
}) {
  return (
    <div className="table-wrap">
      <table tabIndex={0}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.num ? 'num' : undefined}>
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.label} className={column.num ? 'num' : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
