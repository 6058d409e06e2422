<?php
/**
 * Plugin Name: Storefront: rebuild on publish
 * Description: Asks the storefront's build to run again when a blog post is published, updated while published, or taken off the site.
 *
 * A must-use plugin: copy this file to wp-content/mu-plugins/ (WordPress loads every PHP file
 * there without activation). Nothing secret is in this file; the hook lives in wp-config.php:
 *
 *   // Netlify build hook, or Cloudflare Pages deploy hook: the URL itself is the secret.
 *   define( 'STOREFRONT_BUILD_HOOK_URL', 'https://api.netlify.com/build_hooks/YOUR_HOOK_ID' );
 *
 *   // GitHub Actions: a repository_dispatch to the repository holding the workflow, with a
 *   // fine-grained token for that repository only, permission "Contents: Read and write".
 *   define( 'STOREFRONT_BUILD_HOOK_URL', 'https://api.github.com/repos/OWNER/REPO/dispatches' );
 *   define( 'STOREFRONT_BUILD_HOOK_TOKEN', 'the token' );
 *
 * See docs/wordpress.md, "Rebuild when a post is published".
 */

defined( 'ABSPATH' ) || exit;

/**
 * Every status change of a post passes here: draft → publish, publish → publish (an update),
 * future → publish (a scheduled post going live), publish → draft, private or trash.
 */
add_action( 'transition_post_status', function ( $new_status, $old_status, $post ) {
	// Only blog posts reach the site: not pages, menus or attachments, and not revisions or
	// autosaves (an autosave is a revision; DOING_AUTOSAVE covers the request that makes it).
	if ( 'post' !== $post->post_type || wp_is_post_revision( $post ) || wp_is_post_autosave( $post ) ) {
		return;
	}
	if ( defined( 'DOING_AUTOSAVE' ) && DOING_AUTOSAVE ) {
		return;
	}
	// The site changes only when the post was or is published; editing a draft changes nothing.
	if ( 'publish' === $new_status || 'publish' === $old_status ) {
		storefront_rebuild_soon();
	}
}, 10, 3 );

/** A published post deleted outright (with the trash turned off) leaves the site too. */
add_action( 'before_delete_post', function ( $post_id, $post ) {
	if ( $post && 'post' === $post->post_type && 'publish' === $post->post_status ) {
		storefront_rebuild_soon();
	}
}, 10, 2 );

/**
 * One request to the hook per WordPress request, sent at its end: a bulk edit of 40 posts asks
 * for one build, and the post's categories and featured image are saved by then.
 */
function storefront_rebuild_soon() {
	static $queued = false;
	if ( $queued || ! defined( 'STOREFRONT_BUILD_HOOK_URL' ) ) {
		return;
	}
	$queued = true;
	add_action( 'shutdown', 'storefront_send_build_hook' );
}

function storefront_send_build_hook() {
	$url     = STOREFRONT_BUILD_HOOK_URL;
	$headers = array( 'Content-Type' => 'application/json' );
	$body    = '{}'; // Netlify and Cloudflare need no body; '{}' is what Netlify's docs send.

	if ( 'api.github.com' === wp_parse_url( $url, PHP_URL_HOST ) ) {
		// GitHub: POST /repos/OWNER/REPO/dispatches starts the workflows listening for this
		// event_type (docs/examples/github-rebuild.yml: repository_dispatch, types).
		$headers['Accept']        = 'application/vnd.github+json';
		$headers['Authorization'] = 'Bearer ' . ( defined( 'STOREFRONT_BUILD_HOOK_TOKEN' ) ? STOREFRONT_BUILD_HOOK_TOKEN : '' );
		$body                     = wp_json_encode( array( 'event_type' => 'wordpress-publish' ) );
	}

	// Not blocking: WordPress does not wait to read the answer, and the editor is never held up
	// for longer than the timeout. A lost request is caught up by the next publish or by the
	// daily scheduled build.
	wp_remote_post( $url, array(
		'headers'  => $headers,
		'body'     => $body,
		'timeout'  => 5,
		'blocking' => false,
	) );
}
