import { Section, type SectionComponentProps } from "~/components/sections/Section.tsx";
import { StarRating } from "~/components/ui/StarRating.tsx";

/** Customer reviews side by side: stars, text, who and when. Deliberately no review markup for search engines. */
export function ReviewGrid({ heading, reviews, tone }: SectionComponentProps<"reviews">) {
  return (
    <Section heading={heading} tone={tone}>
      <ul className="mt-10 grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {reviews.map((review) => (
          <li key={review.name} className="flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
            <StarRating rating={review.rating} />
            <blockquote className="mt-3 flex-1 text-slate-700">
              <p>“{review.text}”</p>
            </blockquote>
            <p className="mt-4 font-semibold text-brand-900">{review.name}</p>
            <p className="text-sm text-slate-600">
              {review.location} · {review.date}
            </p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
