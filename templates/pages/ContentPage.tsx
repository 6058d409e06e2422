import { Hero } from '../sections/Hero.js';
import { Sections } from '../sections/Sections.js';
import type { Frame, HeroView, SectionView } from '../view-model.js';

/** Home, About and Contact: a hero and content sections. */
export function ContentPage({
  frame,
  hero,
  sections,
  large,
}: {
  frame: Frame;
  hero: HeroView;
  sections: SectionView[];
  large: boolean;
}) {
  return (
    <>
      <Hero hero={hero} large={large} />
      <Sections sections={sections} frame={frame} />
    </>
  );
}
