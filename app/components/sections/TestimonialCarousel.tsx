import { useEffect, useRef, useState } from "react";
import { Icon } from "~/components/Icon.tsx";
import { StarRating } from "~/components/ui/StarRating.tsx";
import type { Testimonial } from "~/content/types.ts";
import { SLIDE_DURATION_MS, nextIndex, previousIndex, slideAt } from "~/lib/carousel.ts";

const slideId = (index: number) => `testimonial-${index + 1}`;

/**
 * One testimonial at a time, with previous/next buttons and dots; wraps at both ends.
 * Without scripts (and before hydration) it is a scroll-snap track: it can be swiped or scrolled,
 * and each dot is a link to its slide. Once hydrated, previous/next work too and every move slides
 * in 500 ms. The track's scroll position decides which slide is active, so the marked dot is right
 * even when the visitor swiped or followed a dot before hydration.
 */
export function TestimonialCarousel({ testimonials, label }: { testimonials: Testimonial[]; label: string }) {
  const [active, setActive] = useState(0);
  const trackRef = useRef<HTMLDivElement>(null);
  const count = testimonials.length;

  const followScroll = () => {
    const track = trackRef.current;
    if (track) setActive(slideAt(track.scrollLeft, track.clientWidth, count));
  };
  useEffect(followScroll, [count]);

  function showSlide(index: number) {
    const track = trackRef.current;
    const slides = track?.firstElementChild;
    if (!track || !slides) return;
    setActive(index);
    // The track jumps to the slide at once and its contents then slide in from where they were,
    // so the scroll position (and the dot it marks) is right from the first frame. Snapping is off
    // meanwhile: it would chase the moving slides.
    const shift = index * track.clientWidth - track.scrollLeft;
    track.scrollLeft += shift;
    for (const running of slides.getAnimations()) running.cancel();
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    track.style.scrollSnapType = "none";
    slides.animate([{ transform: `translateX(${shift}px)` }, { transform: "none" }], {
      duration: SLIDE_DURATION_MS,
      easing: "ease-in-out",
    }).onfinish = () => track.style.removeProperty("scroll-snap-type");
  }

  return (
    <div role="region" aria-roledescription="carousel" aria-label={label} className="mx-auto max-w-2xl">
      <div
        ref={trackRef}
        // Focusable, so keyboard users can scroll the track when scripts are off.
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scroll container, not a control
        tabIndex={0}
        onScroll={followScroll}
        className="snap-x snap-mandatory overflow-x-auto overscroll-x-contain rounded-2xl bg-white text-slate-900 shadow-lg [scrollbar-width:none] focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-white"
      >
        <ul className="flex">
          {testimonials.map((testimonial, index) => (
            <li
              key={testimonial.name}
              id={slideId(index)}
              className="w-full shrink-0 snap-start scroll-mt-24 p-8"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${count}`}
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
        {/* Previous and next need scripts to know where they are; without scripts the dots remain. */}
        <button
          type="button"
          className="rounded-full bg-white/15 p-2 hover:bg-white/25 [@media(scripting:none)]:hidden"
          aria-label="Previous testimonial"
          onClick={() => showSlide(previousIndex(active, count))}
        >
          <Icon name="chevron-left" />
        </button>
        <ul className="flex gap-1">
          {testimonials.map((testimonial, index) => (
            <li key={testimonial.name}>
              <a
                href={`#${slideId(index)}`}
                className="flex size-6 items-center justify-center"
                aria-label={`Show testimonial ${index + 1}`}
                aria-current={index === active ? "true" : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  showSlide(index);
                }}
              >
                <span className={`block size-3 rounded-full ${index === active ? "bg-white" : "bg-white/40"}`} />
              </a>
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="rounded-full bg-white/15 p-2 hover:bg-white/25 [@media(scripting:none)]:hidden"
          aria-label="Next testimonial"
          onClick={() => showSlide(nextIndex(active, count))}
        >
          <Icon name="chevron-right" />
        </button>
      </div>
    </div>
  );
}
