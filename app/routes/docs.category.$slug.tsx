import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { DocLayout } from '../components/DocLayout.js';
import { docsCatalogue, sidebarNodes } from '../docs/docs.server.js';
import { allCategories } from '../docs/sidebar.js';
import { siteTitle } from '../site.js';

/** A category's index: its description and a card per page or sub-category. */
export function loader({ params }: LoaderFunctionArgs) {
  const category = allCategories().find((entry) => entry.slug === params.slug);
  if (!category) throw new Response('Not Found', { status: 404 });
  const { pages } = docsCatalogue();
  const cards = category.items.map((item) => {
    if (item.kind === 'category') {
      return { href: `/docs/category/${item.category.slug}`, title: item.category.label, description: item.category.description };
    }
    const { frontMatter } = pages.get(item.path)!;
    return { href: `/docs/${item.path}`, title: frontMatter.title, description: frontMatter.description };
  });
  return { label: category.label, description: category.description, cards, sidebar: sidebarNodes() };
}

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  data ? [{ title: `${data.label} | ${siteTitle}` }, { name: 'description', content: data.description }] : [];

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
