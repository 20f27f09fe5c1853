import type { ReactNode } from "react";
import { DataTable } from "../components/TableRegion.tsx";

/** A column of a figures table: its heading and what each row shows in it. */
export interface FiguresColumn<Row> {
  heading: string;
  cell(row: Row): ReactNode;
}

const numberCell = "text-right tabular-nums";

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
  sums = [],
}: {
  label: string;
  caption: string;
  rows: Row[];
  rowKey(row: NoInfer<Row>): string;
  labels: [FiguresColumn<NoInfer<Row>>, ...FiguresColumn<NoInfer<Row>>[]];
  figures: FiguresColumn<NoInfer<Row>>[];
  /**
   * Rows after the listed ones, each summing others (the rows not listed, or all of them): its label, and its figures
   * in the order of `figures`.
   */
  sums?: ({ label: string; cells: ReactNode[] } | null)[];
}) {
  const [name, ...otherLabels] = labels;
  return (
    <DataTable label={label} caption={caption} headings={[...labels, ...figures].map((column) => column.heading)}>
      {rows.map((row) => (
        <tr key={rowKey(row)}>
          <th scope="row" className="font-normal">
            {name.cell(row)}
          </th>
          {otherLabels.map((column) => (
            <td key={column.heading}>{column.cell(row)}</td>
          ))}
          {figures.map((column) => (
            <td key={column.heading} className={numberCell}>
              {column.cell(row)}
            </td>
          ))}
        </tr>
      ))}
      {sums.map((sum) =>
        sum ? (
          <tr key={sum.label}>
            <th scope="row" colSpan={labels.length} className="font-normal">
              {sum.label}
            </th>
            {sum.cells.map((cell, index) => (
              <td key={figures[index]?.heading ?? index} className={numberCell}>
                {cell}
              </td>
            ))}
          </tr>
        ) : null,
      )}
    </DataTable>
  );
}
