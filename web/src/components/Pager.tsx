/**
 * Previous and Next under a numbered list page: `first` is the offset of the page's first row (0-based), `shown` how
 * many rows it has, `count` how many the filters match in all.
 */
export function Pager({
  label,
  page,
  first,
  shown,
  count,
  onPage,
}: {
  label: string;
  page: number;
  first: number;
  shown: number;
  count: number;
  onPage: (page: number) => void;
}) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="button" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        {first + 1}–{first + shown} of {count}
      </span>
      <button type="button" className="button" disabled={first + shown >= count} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
