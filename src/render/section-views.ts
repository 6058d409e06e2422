import type { Section } from '../content/schemas.js';
import type { HeroView, SectionView } from '../../templates/view-model.js';
import { pickerGroups, serviceListGroups } from './catalogue-views.js';
import type { PageData } from './page-data.js';

/**
 * A page's sections as its template shows them, with what each takes from the catalogue and the
 * site. On a service page, `service` (the catalogue's kind: followers, watch-hours...) chooses the
 * promises of its why-choose section.
 */
export function sectionViews(data: PageData, sections: Section[], service?: string): SectionView[] {
  const { content, services, pathOfSub, platformOfPath } = data;
  return sections.map((section): SectionView => {
    switch (section.kind) {
      case 'guarantees':
        return {
          ...section,
          items: content.site.guarantees
            .filter((promise) => !promise.for || (service !== undefined && promise.for.includes(service)))
            .map(({ title, text }) => ({ title, text })),
        };
      case 'picker':
        return {
          kind: 'picker',
          id: section.id,
          heading: section.heading,
          intro: section.intro,
          defaultId: section.defaultSubCategory,
          groups: pickerGroups(content.catalogue, services, pathOfSub, (id) => data.offer(id)),
          terms: data.buyingTerms,
        };
      case 'service-list':
        return { ...section, groups: serviceListGroups(content.catalogue, services, pathOfSub) };
      case 'cards':
      case 'steps':
        return {
          ...section,
          items: section.items.map((item) => ({
            ...item,
            platform: item.path && platformOfPath.get(item.path),
          })),
        };
      default:
        return section;
    }
  });
}

/** Hero buttons; one linking to a service page carries its platform's mark. */
export function heroButtons(data: PageData, buttons: { label: string; path: string }[]): HeroView['buttons'] {
  return buttons.map((button) => ({ ...button, platform: data.platformOfPath.get(button.path) }));
}
