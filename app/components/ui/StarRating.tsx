import { Icon } from "~/components/Icon.tsx";

/** Five stars, as many filled as the rating rounds to; the exact figure is in the label. */
export function StarRating({ rating }: { rating: number }) {
  return (
    <p className="flex gap-0.5 text-amber-500" aria-label={`Rated ${rating} out of 5`} role="img">
      {Array.from({ length: 5 }, (_, star) => (
        <Icon
          key={star}
          name="star"
          className={`size-5 ${star < Math.round(rating) ? "fill-current" : "text-slate-300"}`}
        />
      ))}
    </p>
  );
}
