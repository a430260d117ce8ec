import { Link } from '@remix-run/react';
import { routeMeta } from '../meta.js';
import { siteTitle } from '../site.js';

export const meta = routeMeta(() => [
  { title: siteTitle },
  {
    name: 'description',
    content:
      'Documentation of the provider API of the youth culture pass: offers, stocks, bookings and collective offers for schools.',
  },
]);

const sections = [
  {
    href: '/docs',
    title: 'Docs',
    description:
      'Guides and tutorials: test accounts, authentication, offers, bookings, ticketing systems and messaging.',
  },
  {
    href: '/rest-api',
    title: 'REST API',
    description: 'The reference of every endpoint, generated from the OpenAPI 3.1 specification.',
  },
  {
    href: '/change-logs',
    title: 'Change logs',
    description: 'What changed in the API, release by release.',
  },
];

export default function Home() {
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container">
          <h1 className="hero__title" id="hero-title">
            {siteTitle}
          </h1>
          <p className="hero__subtitle">
            Connect your ticketing, stock or offer-management software to the provider API of the youth culture pass:
            publish events and products, manage stocks and bookings, and offer collective activities to schools.
          </p>
          <p>
            <Link to="/docs" className="button button--large">
              Get started
            </Link>
          </p>
        </div>
      </section>
      <div className="container">
        <ul className="cards">
          {sections.map((section) => (
            <li key={section.href}>
              <Link to={section.href} className="card">
                <h2 className="card__title">{section.title}</h2>
                <p className="card__text">{section.description}</p>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from '../components/ErrorPages.js';
