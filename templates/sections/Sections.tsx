import { ShieldIcon } from '../Icons.js';
import { CARD_COLUMNS, gridClass } from '../grid.js';
import type { Frame, SectionView } from '../view-model.js';
import { Cards } from './Cards.js';
import { Channels } from './Channels.js';
import { ContactBlock } from './ContactBlock.js';
import { Html } from './Html.js';
import { Picker } from './Picker.js';
import { ServiceList } from './ServiceList.js';
import { TraderDetails } from './TraderDetails.js';

function SectionShell({
  id,
  heading,
  intro,
  alt,
  children,
}: {
  id: string;
  heading: string;
  intro?: { html: string };
  alt: boolean;
  children: React.ReactNode;
}) {
  return (
    <section className={alt ? 'section section-alt' : 'section'} id={id} aria-labelledby={`${id}-heading`}>
      <div className="container">
        <h2 id={`${id}-heading`}>{heading}</h2>
        <Html value={intro} className="prose section-intro" />
        {children}
      </div>
    </section>
  );
}

/** The content sections of a page, in content order, with alternating backgrounds. */
export function Sections({ sections, frame }: { sections: SectionView[]; frame: Frame }) {
  return (
    <>
      {sections.map((section, i) => {
        const alt = i % 2 === 1;
        switch (section.kind) {
          case 'contact':
            return <ContactBlock key={section.id} id={section.id} block={frame.contactBlock} />;
          case 'steps':
            return (
              <SectionShell key={section.id} {...section} alt={alt}>
                <Cards items={section.items} numbered />
                {section.cta ? (
                  <p className="section-cta">
                    <a className="button" href={section.cta.href}>
                      {section.cta.label}
                    </a>
                  </p>
                ) : null}
              </SectionShell>
            );
          case 'cards':
            return (
              <SectionShell key={section.id} {...section} alt={alt}>
                <Cards items={section.items} />
              </SectionShell>
            );
          case 'prose':
            return (
              <SectionShell key={section.id} {...section} alt={alt}>
                <Html value={section.body} className="prose prose-narrow" />
              </SectionShell>
            );
          case 'guarantees':
            return (
              <SectionShell key={section.id} {...section} alt={alt}>
                <ul className={gridClass(section.items.length, CARD_COLUMNS)}>
                  {section.items.map((item) => (
                    <li className="card" key={item.title}>
                      <span className="card-icon" aria-hidden="true">
                        <ShieldIcon />
                      </span>
                      <h3>{item.title}</h3>
                      <Html value={item.text} />
                    </li>
                  ))}
                </ul>
              </SectionShell>
            );
          case 'picker':
            return (
              <SectionShell key={section.id} {...section} alt={alt}>
                <Picker groups={section.groups} defaultId={section.defaultId} terms={section.terms} />
              </SectionShell>
            );
          case 'trader':
            return (
              <SectionShell key={section.id} {...section} alt={alt}>
                <TraderDetails trader={frame.trader} />
              </SectionShell>
            );
          case 'service-list':
            return (
              <SectionShell key={section.id} {...section} alt={alt}>
                <ServiceList id={section.id} groups={section.groups} />
              </SectionShell>
            );
          case 'channels':
            return (
              <SectionShell key={section.id} {...section} alt={alt}>
                <Channels channels={frame.contactChannels} />
              </SectionShell>
            );
          default:
            return section satisfies never;
        }
      })}
    </>
  );
}
