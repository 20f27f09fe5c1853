import { Link } from "react-router";
import { siteConfig } from "~/config/site.ts";
import type { LegalBlock, LegalDocumentContent } from "~/content/types.ts";
import { fillPlaceholders, linkSegments } from "~/lib/text.ts";

/** The operator's details come from configuration, never from the copy itself. */
const placeholders = {
  company: siteConfig.companyName,
  operatorName: siteConfig.legalOperator.name,
  operatorAddress: siteConfig.legalOperator.address,
  operatorEmail: siteConfig.legalOperator.email,
};

const sectionId = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

/** A policy page: title, date, an optional button-style link, a table of contents and numbered sections. */
export function LegalDocument({ content }: { content: LegalDocumentContent }) {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 text-slate-800">
      <h1 className="text-4xl font-extrabold tracking-tight text-brand-900">{content.title}</h1>
      <p className="mt-3 text-slate-600">Last updated: {content.lastUpdated}</p>
      {content.action ? (
        <Link
          to={content.action.to}
          className="mt-6 inline-block rounded-lg bg-brand-700 px-5 py-3 font-bold text-white hover:bg-brand-900"
        >
          {content.action.label}
        </Link>
      ) : null}
      <div className="mt-8 space-y-4">
        {content.intro.map((block, index) => (
          <Block key={index} block={block} />
        ))}
      </div>
      <nav aria-labelledby="contents-heading" className="mt-8 rounded-2xl bg-slate-50 p-6">
        <h2 id="contents-heading" className="text-lg font-bold text-brand-900">
          Contents
        </h2>
        <ol className="mt-3 list-decimal space-y-1 pl-6">
          {content.sections.map((section) => (
            <li key={section.title}>
              <a href={`#${sectionId(section.title)}`} className="text-brand-700 underline underline-offset-2">
                {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {content.sections.map((section, index) => (
        <section key={section.title} id={sectionId(section.title)} className="mt-10 scroll-mt-24 space-y-4">
          <h2 className="text-2xl font-bold text-brand-900">
            {index + 1}. {section.title}
          </h2>
          {section.blocks.map((block, blockIndex) => (
            <Block key={blockIndex} block={block} />
          ))}
        </section>
      ))}
    </article>
  );
}

function Block({ block }: { block: LegalBlock }) {
  if (typeof block === "string") return <p className="leading-relaxed">{richText(block)}</p>;
  return (
    <ul className="list-disc space-y-2 pl-6 leading-relaxed">
      {block.list.map((item) => (
        <li key={item}>{richText(item)}</li>
      ))}
    </ul>
  );
}

const linkClass = "font-semibold text-brand-700 underline underline-offset-2";

function richText(text: string) {
  return linkSegments(fillPlaceholders(text, placeholders)).map((segment, index) => {
    if (!segment.href) return segment.text;
    return segment.href.startsWith("/") ? (
      <Link key={index} to={segment.href} className={linkClass}>
        {segment.text}
      </Link>
    ) : (
      <a key={index} href={segment.href} className={linkClass}>
        {segment.text}
      </a>
    );
  });
}
