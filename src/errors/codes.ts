/**
 * The catalogue of problem codes. A code never changes meaning once published; the docs and
 * the tests refer to them.
 */
export const codes = {
  yamlSyntax: 'SF101',
  frontMatterSyntax: 'SF102',
  schema: 'SF103',
  unknownToken: 'SF104',
  typedPrice: 'SF105',
  /** A paid tier or upgrade offered in copy without a price in the catalogue. */
  unpricedUpsell: 'SF106',
  duplicateProductId: 'SF110',
  slugQuantityMismatch: 'SF111',
  badPrice: 'SF112',
  unknownSubCategory: 'SF113',
  /** A review of a service the site does not show, or dated in the future. */
  badReview: 'SF114',
  duplicateSubCategoryId: 'SF115',
  /** A support tile names a different size than the largest package of its grid. */
  supportTileMismatch: 'SF116',
  /** More than one package of a sub-category marked `popular`: a grid has one "Most popular". */
  twoPopularPackages: 'SF117',
  /**
   * A package marked popular without the source of the claim kept in the catalogue (`popular: true`,
   * or a source missing its period or its orders), or counted over a period that ends after the build.
   */
  popularWithoutSource: 'SF118',
  duplicateRoute: 'SF120',
  brokenInternalLink: 'SF121',
  badRedirect: 'SF122',
  duplicateSectionId: 'SF123',
  badPostSlug: 'SF124',
  /** A path whose file would lie outside the output folder, be hidden, or shadow a file the build writes. */
  unsafePath: 'SF125',
  emptyContactChannel: 'SF130',
  badSetting: 'SF140',
  missingFile: 'SF141',
  /** An example value (domain, drama number, default brand, example trader) in a build for a real site address. */
  placeholder: 'SF142',
  /** A symbolic link in the content (to a file or a folder, at any depth) whose target is outside the project folder; or a folder link under content/images/. */
  outsideProject: 'SF143',
  renderFailed: 'SF150',
  outputFailed: 'SF160',
  /** A site over a limit its host publishes (files, a file's bytes, the site's bytes, files in a folder): refused before the output folder is swapped. */
  overHostLimit: 'SF161',
  badFlag: 'SF170',
  cmsFetchFailed: 'SF201',
  cmsBadResponse: 'SF202',
  cmsNoCache: 'SF203',
  cmsBadPost: 'SF204',
  duplicatePostSlug: 'SF205',
  /** A post's image that cannot be read, downloaded or made into the page's formats. */
  badImage: 'SF206',
  brokenLink: 'SF301',
  badCanonical: 'SF302',
  badSitemapUrl: 'SF303',
  orphanPage: 'SF304',
  badRedirectTarget: 'SF305',
  /** A Buy Now whose slug is no product of the checkout (or, without the Store API, does not answer 200). */
  checkoutNoProduct: 'SF401',
  /** A checkout product that cannot be bought or is out of stock. */
  checkoutNotForSale: 'SF402',
  /** A checkout product charging another price or currency than the storefront shows. */
  checkoutPriceDiffers: 'SF403',
  /** A checkout product whose permalink is not the address its Buy Now sends visitors to. */
  checkoutElsewhere: 'SF404',
  /** A bug: an error the code did not expect (report it). */
  internal: 'SF900',
  /** The operating system refused (a port in use, a full disk, a permission). */
  systemError: 'SF901',
} as const;

export type Code = (typeof codes)[keyof typeof codes];
