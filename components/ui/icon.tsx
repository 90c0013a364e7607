/** Inline outline icons (24×24, stroke = currentColor); no icon library. */
import { iconPaths as paths, type IconName } from "@/lib/dashboard/shell/icon-paths";

export type { IconName };

export function Icon({ name, className = "size-4", title }: { name: IconName; className?: string; title?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      aria-hidden={title ? undefined : true}
      role={title ? "img" : undefined}
    >
      {title ? <title>{title}</title> : null}
      <path d={paths[name]} />
    </svg>
  );
}
