import { iconPaths, type IconName } from "~/content/icons.ts";

const symbolId = (name: IconName) => `icon-${name}`;

/**
 * Every icon, defined once per page as a symbol that each <Icon> draws with <use>. Hidden itself; the
 * stroke style every icon shares is the `icon` class in app.css.
 */
export function IconSprite() {
  return (
    <svg className="hidden" aria-hidden="true" focusable="false">
      {(Object.keys(iconPaths) as IconName[]).map((name) => (
        <symbol key={name} id={symbolId(name)} viewBox="0 0 24 24">
          <path d={iconPaths[name]} />
        </symbol>
      ))}
    </svg>
  );
}

export function Icon({ name, className = "size-6" }: { name: IconName; className?: string }) {
  return (
    <svg className={`icon ${className}`} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <use href={`#${symbolId(name)}`} />
    </svg>
  );
}
