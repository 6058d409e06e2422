import type { Reviews } from '../content/schemas.js';
import { formatDay } from './format-day.js';
import type { RatingLine, ReviewView } from '../../templates/view-model.js';

/**
 * What the site says about ratings, from its one source (content/reviews.yaml), so that the
 * hero, the cross-sell cards and the reviews agree. Reviews kept in the content rate the
 * service they review and are shown on its page; a review platform's figures rate the trader,
 * so they are shown as such, with the platform's name and the day they were read, and never on
 * a service's card. Without a source there is no rating at all. No rating is ever written into
 * structured data: Google's review snippets allow none for a trader's own services (see
 * docs/content-model.md, "Ratings and reviews").
 */
export class Ratings {
  constructor(private readonly source: Reviews | undefined) {}

  /** The reviews of one sub-category, newest first. */
  reviews(subCategory: number): ReviewView[] {
    if (!this.source || !('reviews' in this.source)) return [];
    return this.source.reviews
      .filter((review) => review.subCategory === subCategory)
      .sort((a, b) => b.date.getTime() - a.date.getTime())
      .map((review) => ({
        author: review.author,
        date: formatDay(review.date),
        dateIso: review.date.toISOString().slice(0, 10),
        rating: review.rating,
        text: review.text,
      }));
  }

  /** Where the reviews come from and how they are checked, shown above them; absent without reviews. */
  checked(): string | undefined {
    return this.source && 'reviews' in this.source ? this.source.checked : undefined;
  }

  /** The average of a sub-category's reviews, to one decimal, and how many there are. */
  private average(subCategory: number): { value: number; count: number } | undefined {
    const ratings = this.reviews(subCategory).map((review) => review.rating);
    if (ratings.length === 0) return undefined;
    return {
      value: Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 10) / 10,
      count: ratings.length,
    };
  }

  /** The hero's line: a service's own reviews, or the trader's platform rating (on the home page too). */
  line(subCategory?: number): RatingLine | undefined {
    if (this.source && 'platform' in this.source) {
      const { name, url, rating, count, readOn } = this.source.platform;
      return {
        text:
          `Rated ${rating} out of 5 on ${name} from ${count.toLocaleString('en-GB')} reviews ` +
          `(as read on ${formatDay(readOn)})`,
        href: url,
      };
    }
    const average = subCategory === undefined ? undefined : this.average(subCategory);
    if (!average) return undefined;
    const reviews = average.count === 1 ? 'review' : 'reviews';
    return {
      text: `Rated ${average.value} out of 5 in ${average.count} customer ${reviews}`,
      href: '#reviews',
    };
  }

  /** A cross-sell card's rating: only a service's own reviews rate that service. */
  card(subCategory: number): string | undefined {
    const average = this.average(subCategory);
    return average && `${average.value}/5 (${average.count} ${average.count === 1 ? 'review' : 'reviews'})`;
  }
}
