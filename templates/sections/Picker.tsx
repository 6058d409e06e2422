import { columnsFor } from '../grid.js';
import type { PickerGroup } from '../view-model.js';
import { PackageGrid } from './PackageGrid.js';

/**
 * The home product picker. Without script, the tabs are links to panels and CSS shows the
 * targeted panel (the default one when none is targeted), so every product is reachable. The
 * browser script turns it into ARIA tabs.
 */
export function Picker({ groups, defaultId }: { groups: PickerGroup[]; defaultId: number }) {
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
            <PackageGrid packages={tab.packages} labelledBy={`pick-${tab.id}-heading`} />
            {tab.path ? (
              <p className="picker-more">
                <a href={tab.path}>All about {tab.heading}</a>
              </p>
            ) : null}
          </div>
        ))}
      </div>
    </div>
  );
}
