import type { Section } from '../content/schemas.js';
import type { HeroView, SectionView } from '../../templates/view-model.js';
import { pickerGroups, serviceListGroups } from './catalogue-views.js';
import type { PageData } from './page-data.js';

/** A page's sections as its template shows them, with what each takes from the catalogue and the site. */
export function sectionViews(data: PageData, sections: Section[]): SectionView[] {
  const { config, content, services, pathOfSub, platformOfPath } = data;
  return sections.map((section): SectionView => {
    switch (section.kind) {
      case 'guarantees':
        return { ...section, items: content.site.guarantees };
      case 'picker':
        return {
          kind: 'picker',
          id: section.id,
          heading: section.heading,
          intro: section.intro,
          defaultId: section.defaultSubCategory,
          groups: pickerGroups(content.catalogue, services, pathOfSub, config.checkoutUrl),
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
