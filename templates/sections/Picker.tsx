import { columnsFor } from '../grid.js';
import type { Html, PickerGroup } from '../view-model.js';
import { BuyingTerms } from './BuyingTerms.js';
import { PackageOffer } from './PackageOffer.js';

/**
 * The home product picker. Without script, the tabs are links to panels and CSS shows the
 * targeted panel (the default one when none is targeted), so every product is reachable. The
 * browser script turns it into ARIA tabs. Each panel has its platform's rules above its packages;
 * the terms of buying, the same for all, follow the panels.
 */
export function Picker({ groups, defaultId, terms }: { groups: PickerGroup[]; defaultId: number; terms: Html[] }) {
  const tabs = groups.flatMap((group) => group.tabs);
  return (
    <div className="picker" data-picker data-default={defaultId}>
      <div className="picker-tabs">
        {groups.map((group) => (
          <div className="picker-group" key={group.platform}>
            <p className="picker-platform">{group.platform}</p>
            {/* On a phone, two tabs to a row where a row of three would leave one alone. */}
            <ul className={columnsFor(group.tabs.length, 3) < 3 ? 'picker-tabs-two' : undefined}>
              {group.tabs.map((tab) => (
                <li key={tab.id}>
                  <a href={`#pick-${tab.id}`} data-tab={tab.id}>
                    {tab.label}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="picker-panels">
        {tabs.map((tab) => (
          <div
            className={tab.id === defaultId ? 'picker-panel picker-default' : 'picker-panel'}
            id={`pick-${tab.id}`}
            key={tab.id}
            data-panel={tab.id}
          >
            <h3 id={`pick-${tab.id}-heading`}>{tab.heading}</h3>
            <PackageOffer offer={tab.offer} labelledBy={`pick-${tab.id}-heading`} />
            {tab.path ? (
              <p className="picker-more">
                <a href={tab.path}>All about {tab.heading}</a>
              </p>
            ) : null}
          </div>
        ))}
      </div>
      <BuyingTerms terms={terms} />
    </div>
  );
}
