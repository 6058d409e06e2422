/**
 * The props the templates receive. Everything here is computed by src/render before rendering:
 * prices are formatted, ratings looked up, links resolved. Templates only lay it out.
 */

export interface NavLink {
  label: string;
  path: string;
}

export interface NavColumn {
  heading: string;
  links: NavLink[];
}

export interface ContactChannel {
  icon: 'chat' | 'email' | 'phone';
  title: string;
  desc: string;
  contact: string;
  href: string;
}

export interface ContactBlockProps {
  eyebrow?: string;
  heading: string;
  text: string;
  buttonLabel: string;
}

/** Who the customer is buying from, as the footer and the contact page show it. */
export interface TraderView {
  /** One sentence: legal name, register and number, address, VAT number. */
  identity: string;
  legalName: string;
  tradingName: string;
  address: string;
  /** "00000000, registered in England and Wales"; absent for a sole trader. */
  company?: string;
  vatNumber?: string;
  email: string;
  phone: string;
  /** The phone as a tel: link: digits and +, no spaces. */
  phoneHref: string;
}

/** What every page shares: header, footer and head defaults. */
export interface Frame {
  brandName: string;
  currentPath: string;
  /** The header's own links (Home, About, Contact); the one at currentPath is marked. */
  mainLinks: NavLink[];
  /** The current page is a service page: the Services menu is marked. */
  servicesActive: boolean;
  servicesMenu: NavColumn[];
  usefulLinks: NavLink[];
  serviceLinks: NavLink[];
  footerBlurb: string;
  contactChannels: ContactChannel[];
  contactBlock: ContactBlockProps;
  paymentBrands: string[];
  trader: TraderView;
  /** The provider's form endpoint and its e-mail field's name; absent, no sign-up form is shown. */
  newsletter?: { url: string; emailField: string };
  year: number;
  stylesheetHref: string;
  scriptHref: string;
}

export interface Head {
  title: string;
  description: string;
  /** Absent on the 404 page, which has no address of its own. */
  canonicalUrl?: string;
  /**
   * The link preview, 1200 x 630, and what it shows in words: the page kind's card
   * (src/images/share-cards.ts), or a post's own image.
   */
  ogImageUrl: string;
  ogImageAlt: string;
  ogType: 'website' | 'article';
  noindex: boolean;
  jsonLd: object[];
}

export interface PackageTile {
  id: number;
  /** "1,000 Followers" */
  label: string;
  quantity: string;
  unit: string;
  price: string;
  /** "£18.90 per 1,000": what sets the tiles of a grid apart, besides the quantity. */
  perThousand: string;
  buyUrl: string;
  /** "Delivered over 5 to 20 days", where the service's daily pace is known. */
  delivery?: string;
  /**
   * The package most people take in its grid (catalogue `popular:`): badged "Most popular", with
   * the source of the claim in words, shown once under the grid: "Most popular: 1,000 followers,
   * 412 of 1,030 Instagram followers orders from 1 September to 30 November 2026."
   */
  popular?: { source: string };
}

/**
 * One service's packages with what a buyer must know before pressing Buy Now, above the tiles
 * (content/site.yaml › beforeYouBuy): the platform's rules, linked to the service page's full
 * answer, and how delivery goes. How VAT stands and the right to cancel follow the grid
 * (`BuyingTerms`).
 */
export interface PackageOffer {
  /** "Instagram's rules forbid ...", ending with its link to the answer (#platform-rules). */
  rules: Html;
  /** "Delivery starts within about 15 minutes and is normally complete within 24 to 48 hours." */
  delivery: string;
  /** "50 to 200 watch hours a day", where the service's daily pace is known. */
  pace?: string;
  packages: PackageTile[];
}

export interface ServiceCard {
  name: string;
  path: string;
  /** The platform's catalogue slug (instagram, tiktok, youtube...): the card shows its mark. */
  platform: string;
  fromPrice: string;
  /** "4.8/5 (12 reviews)", from the service's own reviews; absent without them. */
  rating?: string;
}

/** A rating with its source: the text says where it comes from, the link goes there. */
export interface RatingLine {
  text: string;
  href: string;
}

export interface ReviewView {
  author: string;
  date: string;
  dateIso: string;
  rating: number;
  text: string;
}

export interface Crumb {
  label: string;
  path: string;
}

/** Markdown already rendered to HTML by the content stage. */
export interface Html {
  html: string;
}

/** A question and its answer; `id` makes the answer a link target (#platform-rules). */
export interface FaqItem {
  q: string;
  a: Html;
  id?: string;
}

export interface CardItem {
  title: string;
  text: Html;
  path?: string;
  /** The platform of the service page the card links to: the card shows its mark, not the tick. */
  platform?: string;
}

/** One platform's services, for the compact list of every service (a `service-list` section). */
export interface ServiceListGroup {
  platform: string;
  /** The catalogue slug: which mark to draw. */
  slug: string;
  services: { name: string; path: string; fromPrice: string }[];
}

export type SectionView =
  | {
      kind: 'steps';
      id: string;
      heading: string;
      intro?: Html;
      items: CardItem[];
      cta?: { label: string; href: string };
    }
  | { kind: 'cards'; id: string; heading: string; intro?: Html; items: CardItem[] }
  | { kind: 'prose'; id: string; heading: string; intro?: Html; body: Html }
  | { kind: 'guarantees'; id: string; heading: string; intro?: Html; items: { title: string; text: Html }[] }
  | { kind: 'contact'; id: string }
  | {
      kind: 'picker';
      id: string;
      heading: string;
      intro?: Html;
      groups: PickerGroup[];
      defaultId: number;
      /** How VAT stands and the right to cancel, under whichever panel is shown. */
      terms: Html[];
    }
  | { kind: 'channels'; id: string; heading: string; intro?: Html }
  | { kind: 'trader'; id: string; heading: string; intro?: Html }
  | { kind: 'service-list'; id: string; heading: string; intro?: Html; groups: ServiceListGroup[] };

export interface PickerGroup {
  platform: string;
  /** `heading`: the panel's, the service's name in sentence case ("TikTok followers"). */
  tabs: { id: number; label: string; heading: string; path?: string; offer: PackageOffer }[];
}

/** A hero button; one that links to a service page carries that platform's mark. */
export interface HeroButton extends NavLink {
  platform?: string;
}

/**
 * A tile of the home hero: a platform's mark, its name and what it offers from the catalogue, a
 * link to its first service in the picker.
 */
export interface HeroTile {
  platform: string;
  name: string;
  /** "Followers, likes and views". */
  detail: string;
  /** "from £1.00" */
  fromPrice: string;
  /** Its packages: the page's picker's panel ("#pick-10"), or its first service page. */
  href: string;
}

export interface HeroView {
  heading: string;
  intro?: Html;
  buttons: HeroButton[];
  rating?: RatingLine;
  breadcrumb?: Crumb[];
  /** The platforms sold (hero `platforms: true`), each a link to its packages. Absent: text only. */
  visual?: HeroTile[];
}

/** An image as the image stage made it: see templates/sections/Picture.tsx. */
export interface ImageView {
  src: string;
  alt: string;
  width: number;
  height: number;
  /** srcset per format, best first; the last is the fallback's own. Empty: a single file (an SVG). */
  sources: { type: string; srcset: string }[];
}

export interface PostCard {
  path: string;
  titleHtml: string;
  titleText: string;
  excerptHtml: string;
  date: string;
  dateIso: string;
  image?: ImageView;
  /** Only in a build that shows drafts: "Draft: not published", "Scheduled for 1 December 2026: …". */
  unpublished?: string;
}
