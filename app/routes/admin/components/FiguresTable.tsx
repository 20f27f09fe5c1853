import type { ReactNode } from "react";
import { DataTable, cellClass } from "./TableRegion.tsx";

/** A column of a figures table: its heading and what each row shows in it. */
export interface FiguresColumn<Row> {
  heading: string;
  cell(row: Row): ReactNode;
}

const numberCell = `${cellClass} text-right tabular-nums`;

/**
 * Rows of figures named by their first columns: the first names the row (a row header), the other label
 * columns come next, then the figures, right-aligned.
 */
export function FiguresTable<Row>({
  label,
  caption,
  rows,
  rowKey,
  labels,
  figures,
  rest,
}: {
  label: string;
  caption: string;
  rows: Row[];
  rowKey(row: NoInfer<Row>): string;
  labels: [FiguresColumn<NoInfer<Row>>, ...FiguresColumn<NoInfer<Row>>[]];
  figures: FiguresColumn<NoInfer<Row>>[];
  /** A last row summing the rows not listed: its label, and its figures in the order of `figures`. */
  rest?: { label: string; cells: ReactNode[] } | null;
}) {
  const [name, ...otherLabels] = labels;
  return (
    <DataTable label={label} caption={caption} headings={[...labels, ...figures].map((column) => column.heading)}>
      {rows.map((row) => (
        <tr key={rowKey(row)}>
          <th scope="row" className={`${cellClass} font-normal`}>
            {name.cell(row)}
          </th>
          {otherLabels.map((column) => (
            <td key={column.heading} className={cellClass}>
              {column.cell(row)}
            </td>
          ))}
          {figures.map((column) => (
            <td key={column.heading} className={numberCell}>
              {column.cell(row)}
            </td>
          ))}
        </tr>
      ))}
      {rest ? (
        <tr>
          <th scope="row" colSpan={labels.length} className={`${cellClass} font-normal`}>
            {rest.label}
          </th>
          {rest.cells.map((cell, index) => (
            <td key={figures[index]?.heading ?? index} className={numberCell}>
              {cell}
            </td>
          ))}
        </tr>
      ) : null}
    </DataTable>
  );
}
