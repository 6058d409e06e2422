import { StarIcon } from '../Icons.js';
import type { ReviewView } from '../view-model.js';

/**
 * The reviews customers wrote about this service (content/reviews.yaml), newest first, after
 * where they come from and how they are checked.
 */
export function Reviews({ reviews, checked }: { reviews: ReviewView[]; checked?: string }) {
  if (reviews.length === 0) return null;
  return (
    <section className="section" id="reviews" aria-labelledby="reviews-heading">
      <div className="container">
        <h2 id="reviews-heading">Customer reviews</h2>
        {checked ? <p className="section-intro reviews-checked">{checked}</p> : null}
        <ul className="review-list">
          {reviews.map((review) => (
            <li className="card review" key={`${review.author}|${review.dateIso}`}>
              <p className="review-rating">
                <span className="stars" aria-hidden="true">
                  {Array.from({ length: review.rating }, (_, n) => (
                    <StarIcon key={n} />
                  ))}
                </span>
                <span>{`${review.rating} out of 5`}</span>
              </p>
              <blockquote>
                <p>{review.text}</p>
              </blockquote>
              <p className="review-by">
                {review.author}, <time dateTime={review.dateIso}>{review.date}</time>
              </p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
