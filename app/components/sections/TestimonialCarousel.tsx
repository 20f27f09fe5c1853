import { useState } from "react";
import { Icon } from "~/components/Icon.tsx";
import { StarRating } from "~/components/ui/StarRating.tsx";
import type { Testimonial } from "~/content/types.ts";
import { nextIndex, previousIndex } from "~/lib/carousel.ts";

/** One testimonial at a time, with previous/next buttons and dots; wraps at both ends. */
export function TestimonialCarousel({ testimonials, label }: { testimonials: Testimonial[]; label: string }) {
  const [active, setActive] = useState(0);
  const count = testimonials.length;
  return (
    <div role="region" aria-roledescription="carousel" aria-label={label} className="mx-auto max-w-2xl">
      <div className="overflow-hidden rounded-2xl bg-white text-slate-900 shadow-lg">
        <ul
          className="flex transition-transform duration-500 ease-in-out motion-reduce:transition-none"
          // The first slide needs no offset, so server-rendered HTML carries no style attribute for the CSP to refuse.
          style={active === 0 ? undefined : { transform: `translateX(-${active * 100}%)` }}
          aria-live="polite"
        >
          {testimonials.map((testimonial, index) => (
            <li
              key={testimonial.name}
              className="w-full shrink-0 p-8"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${count}`}
              aria-hidden={index !== active}
              inert={index !== active}
            >
              <StarRating rating={testimonial.rating} />
              <h3 className="mt-3 text-xl font-bold text-brand-900">{testimonial.heading}</h3>
              <blockquote className="mt-3 text-slate-700">
                <p>“{testimonial.quote}”</p>
              </blockquote>
              <p className="mt-4 font-semibold">
                {testimonial.name}, <span className="font-normal text-slate-600">{testimonial.location}</span>
              </p>
            </li>
          ))}
        </ul>
      </div>
      <div className="mt-6 flex items-center justify-center gap-4">
        <button
          type="button"
          className="rounded-full bg-white/15 p-2 hover:bg-white/25"
          aria-label="Previous testimonial"
          onClick={() => setActive((index) => previousIndex(index, count))}
        >
          <Icon name="chevron-left" />
        </button>
        <ul className="flex gap-1">
          {testimonials.map((testimonial, index) => (
            <li key={testimonial.name}>
              <button
                type="button"
                className="flex size-6 items-center justify-center"
                aria-label={`Show testimonial ${index + 1}`}
                aria-current={index === active ? "true" : undefined}
                onClick={() => setActive(index)}
              >
                <span className={`block size-3 rounded-full ${index === active ? "bg-white" : "bg-white/40"}`} />
              </button>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="rounded-full bg-white/15 p-2 hover:bg-white/25"
          aria-label="Next testimonial"
          onClick={() => setActive((index) => nextIndex(index, count))}
        >
          <Icon name="chevron-right" />
        </button>
      </div>
    </div>
  );
}
