import { notFound } from "next/navigation";
import { ServiceError } from "../errors";

/** For pages: a domain 404 (unknown, or another organization's) becomes the page's 404. */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) notFound();
    throw error;
  }
}
