import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { DocLayout } from '../components/DocLayout.js';
import type { DocsAddresses } from '../docs/addresses.server.js';
import { DOCS_UNAVAILABLE, docsCatalogue, sidebarNodes } from '../docs/docs.server.js';
import { type SidebarCategory, allCategories } from '../docs/sidebar.js';
import { loadOrFail } from '../loadFailure.js';
import { pageMeta, routeMeta } from '../meta.js';

/** A category's index: its description and a card per page or sub-category. */
export function loader({ params, context }: LoaderFunctionArgs) {
  const category = allCategories().find((entry) => entry.slug === params.slug);
  if (!category) throw new Response('Not Found', { status: 404 });
  return loadOrFail(DOCS_UNAVAILABLE, () => categoryPage(category, context.portal.addresses));
}

function categoryPage(category: SidebarCategory, addresses: DocsAddresses) {
  const { pages } = docsCatalogue(addresses);
  const cards = category.items.map((item) => {
    if (item.kind === 'category') {
      return {
        href: `/docs/category/${item.category.slug}`,
        title: item.category.label,
        description: item.category.description,
      };
    }
    const { frontMatter } = pages.get(item.path)!;
    return { href: `/docs/${item.path}`, title: frontMatter.title, description: frontMatter.description };
  });
  return { label: category.label, description: category.description, cards, sidebar: sidebarNodes(addresses) };
}

export const meta = routeMeta<ReturnType<typeof categoryPage>>((page) => pageMeta(page.label, page.description));

export default function CategoryPage() {
  const { label, description, cards, sidebar } = useLoaderData<typeof loader>();
  return (
    <DocLayout sidebar={sidebar} toc={[]}>
      <h1>{label}</h1>
      <p>{description}</p>
      <ul className="cards">
        {cards.map((card) => (
          <li key={card.href} className="card">
            <Link to={card.href}>
              <h2 className="card__title">{card.title}</h2>
              <p>{card.description}</p>
            </Link>
          </li>
        ))}
      </ul>
    </DocLayout>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from '../components/ErrorPages.js';
