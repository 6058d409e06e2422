import { gridClass } from '../grid.js';
import { PlatformMark } from '../PlatformMark.js';
import type { ServiceListGroup } from '../view-model.js';

/** Every service in one compact list, a column per platform from 64rem, each with its starting price. */
export function ServiceList({ id, groups }: { id: string; groups: ServiceListGroup[] }) {
  return (
    <div className={`${gridClass(groups.length, [1, 1, 3])} service-list`}>
      {groups.map((group) => (
        <div className="service-group" key={group.slug}>
          <h3 className="service-group-heading" id={`${id}-${group.slug}`}>
            <PlatformMark platform={group.slug} />
            {group.platform}
          </h3>
          <ul aria-labelledby={`${id}-${group.slug}`}>
            {group.services.map((service) => (
              <li key={service.path}>
                <a href={service.path}>
                  <span className="visually-hidden">{`${group.platform} `}</span>
                  {service.name}
                </a>
                <span>
                  from <strong data-price>{service.fromPrice}</strong>
                </span>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
