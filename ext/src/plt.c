/*
 * Import rebinding by global offset table.
 *
 * Every call a shared library makes to a function of another object goes
 * through an entry of its global offset table that the dynamic linker
 * filled in: a JUMP_SLOT relocation for PLT calls, a GLOB_DAT one where the
 * library took the function's address. Storing another address there
 * redirects exactly that library's calls. The entries are found from the
 * program headers dl_iterate_phdr() reports for each loaded object: the
 * dynamic section names the relocation tables, each relocation names its
 * symbol. Full RELRO (-z now -z relro, Debian's default) leaves the table
 * read-only after loading, so the page is made writable for the store only.
 */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE   /* dl_iterate_phdr, RTLD_DEFAULT */
#endif
#include "plt.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Both architectures below are 64-bit. */
#define RELOC_TYPE(info) ELF64_R_TYPE(info)
#define RELOC_SYM(info)  ELF64_R_SYM(info)

#if defined(__x86_64__)
# define PLT_JUMP_SLOT R_X86_64_JUMP_SLOT
# define PLT_GLOB_DAT  R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
# define PLT_JUMP_SLOT R_AARCH64_JUMP_SLOT
# define PLT_GLOB_DAT  R_AARCH64_GLOB_DAT
#endif

#define REBINDING_CAPACITY ((int) (sizeof(((rapier_plt_rebinding_t *) 0)->patches) / sizeof(rapier_plt_patch_t)))

#ifdef PLT_JUMP_SLOT

/* What rebinding needs of one loaded object. */
typedef struct {
	const struct dl_phdr_info *info;
	const ElfW(Sym) *symtab;
	const char *strtab;
	size_t strsz;
	const ElfW(Rela) *tables[2];   /* DT_JMPREL (PLT calls), DT_RELA (address references) */
	size_t table_sizes[2];
	uintptr_t protected_start;     /* the pages the dynamic linker made read-only (RELRO) */
	uintptr_t protected_end;
	uintptr_t image_start;         /* the object's mapped image */
	uintptr_t image_end;
} object_t;

typedef struct {
	rapier_plt_rebinding_t *rebinding;
	const char *prefix;            /* objects whose file name starts so, or, when NULL, */
	const void *address;           /* the object whose image holds this */
	const char *symbol;
	void *replacement;
	int rebound;
	int err;
} walk_t;

static uintptr_t page_size(void)
{
	return (uintptr_t) sysconf(_SC_PAGESIZE);
}

/*
 * glibc rewrites the dynamic section's addresses to absolute ones in place
 * on most architectures, and leaves them relative to the load address
 * where that section is read-only: take either.
 */
static uintptr_t dynamic_address(const struct dl_phdr_info *info, ElfW(Addr) ptr)
{
	return ptr < info->dlpi_addr ? info->dlpi_addr + ptr : ptr;
}

static void read_segments(const struct dl_phdr_info *info, object_t *obj, const ElfW(Dyn) **dynamic)
{
	uintptr_t mask = ~(page_size() - 1);

	obj->image_start = UINTPTR_MAX;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD) {
			obj->image_start = start < obj->image_start ? start : obj->image_start;
			obj->image_end = start + ph->p_memsz > obj->image_end ? start + ph->p_memsz : obj->image_end;
		} else if (ph->p_type == PT_DYNAMIC) {
			*dynamic = (const ElfW(Dyn) *) start;
		} else if (ph->p_type == PT_GNU_RELRO) {
			/* As the dynamic linker protects it: whole pages, the partial last one left writable. */
			obj->protected_start = start & mask;
			obj->protected_end = (start + ph->p_memsz) & mask;
		}
	}
}

static bool read_object(const struct dl_phdr_info *info, object_t *obj)
{
	const ElfW(Dyn) *dyn = NULL;
	bool rela = true;

	memset(obj, 0, sizeof(*obj));
	obj->info = info;
	read_segments(info, obj, &dyn);
	for (; dyn != NULL && dyn->d_tag != DT_NULL; dyn++) {
		switch (dyn->d_tag) {
			case DT_SYMTAB:
				obj->symtab = (const ElfW(Sym) *) dynamic_address(info, dyn->d_un.d_ptr);
				break;
			case DT_STRTAB:
				obj->strtab = (const char *) dynamic_address(info, dyn->d_un.d_ptr);
				break;
			case DT_STRSZ:
				obj->strsz = dyn->d_un.d_val;
				break;
			case DT_JMPREL:
				obj->tables[0] = (const ElfW(Rela) *) dynamic_address(info, dyn->d_un.d_ptr);
				break;
			case DT_PLTRELSZ:
				obj->table_sizes[0] = dyn->d_un.d_val;
				break;
			case DT_PLTREL:
				rela = dyn->d_un.d_val == DT_RELA;
				break;
			case DT_RELA:
				obj->tables[1] = (const ElfW(Rela) *) dynamic_address(info, dyn->d_un.d_ptr);
				break;
			case DT_RELASZ:
				obj->table_sizes[1] = dyn->d_un.d_val;
				break;
		}
	}
	/* Both architectures supported use RELA relocations only. */
	return obj->symtab != NULL && obj->strtab != NULL && rela;
}

static bool is_protected(const object_t *obj, void **slot)
{
	return (uintptr_t) slot >= obj->protected_start && (uintptr_t) slot < obj->protected_end;
}

static int store(void **slot, void *value, bool read_only)
{
	void *page = (void *) ((uintptr_t) slot & ~(page_size() - 1));

	if (read_only && mprotect(page, page_size(), PROT_READ | PROT_WRITE) != 0) {
		return -errno;
	}
	__atomic_store_n(slot, value, __ATOMIC_SEQ_CST);
	if (read_only) {
		mprotect(page, page_size(), PROT_READ);
	}
	return 0;
}

/*
 * What the entry leads to now. An entry not bound yet (lazy binding, no
 * -z now) points back into the library's own PLT, and calling through it
 * would bind it and overwrite the replacement: ask the linker instead.
 */
static void *bound_target(const object_t *obj, void *current, const char *symbol)
{
	uintptr_t addr = (uintptr_t) current;

	if (addr >= obj->image_start && addr < obj->image_end) {
		return dlsym(RTLD_DEFAULT, symbol);
	}
	return current;
}

static bool names_symbol(const object_t *obj, const ElfW(Rela) *rel, const char *symbol)
{
	unsigned long type = RELOC_TYPE(rel->r_info);
	ElfW(Word) name;

	if (type != PLT_JUMP_SLOT && type != PLT_GLOB_DAT) {
		return false;
	}
	name = obj->symtab[RELOC_SYM(rel->r_info)].st_name;
	return (obj->strsz == 0 || name < obj->strsz) && strcmp(obj->strtab + name, symbol) == 0;
}

static int rebind_entry(const object_t *obj, void **slot, walk_t *walk)
{
	rapier_plt_rebinding_t *rebinding = walk->rebinding;
	void *original;
	int err;

	if (*slot == walk->replacement) {
		return 0;
	}
	if (rebinding->count == REBINDING_CAPACITY) {
		return -ENOSPC;
	}
	original = bound_target(obj, *slot, walk->symbol);
	if (original == NULL) {
		return -ENOENT;
	}
	if ((err = store(slot, walk->replacement, is_protected(obj, slot))) != 0) {
		return err;
	}
	rebinding->patches[rebinding->count] = (rapier_plt_patch_t) {
		.slot = slot, .original = original, .read_only = is_protected(obj, slot),
	};
	rebinding->count++;
	walk->rebound++;
	return 0;
}

static int rebind_object(const object_t *obj, walk_t *walk)
{
	for (int t = 0; t < 2; t++) {
		size_t count = obj->tables[t] ? obj->table_sizes[t] / sizeof(ElfW(Rela)) : 0;

		for (size_t i = 0; i < count; i++) {
			const ElfW(Rela) *rel = &obj->tables[t][i];
			int err;

			if (!names_symbol(obj, rel, walk->symbol)) {
				continue;
			}
			err = rebind_entry(obj, (void **) (obj->info->dlpi_addr + rel->r_offset), walk);
			if (err != 0) {
				return err;
			}
		}
	}
	return 0;
}

static bool name_matches(const char *path, const char *prefix)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return strncmp(base, prefix, strlen(prefix)) == 0;
}

static bool holds(const object_t *obj, const void *address)
{
	return (uintptr_t) address >= obj->image_start && (uintptr_t) address < obj->image_end;
}

static int visit(struct dl_phdr_info *info, size_t size, void *data)
{
	walk_t *walk = data;
	object_t obj;

	(void) size;
	if (walk->prefix != NULL && (info->dlpi_name == NULL || !name_matches(info->dlpi_name, walk->prefix))) {
		return 0;
	}
	if (!read_object(info, &obj) || (walk->prefix == NULL && !holds(&obj, walk->address))) {
		return 0;
	}
	walk->err = rebind_object(&obj, walk);
	return walk->err != 0;   /* non-zero ends the walk */
}

/* Rebinds in every loaded object the walk selects: how many entries, or -errno. */
static int rebind_walk(walk_t *walk)
{
	dl_iterate_phdr(visit, walk);
	return walk->err != 0 ? walk->err : walk->rebound;
}

int rapier_plt_rebind(rapier_plt_rebinding_t *rebinding, const char *soname_prefix, const char *symbol,
	void *replacement)
{
	return rebind_walk(&(walk_t) {
		.rebinding = rebinding, .prefix = soname_prefix, .symbol = symbol, .replacement = replacement,
	});
}

int rapier_plt_rebind_in(rapier_plt_rebinding_t *rebinding, const void *address, const char *symbol,
	void *replacement)
{
	return rebind_walk(&(walk_t) {
		.rebinding = rebinding, .address = address, .symbol = symbol, .replacement = replacement,
	});
}

static int find_image(struct dl_phdr_info *info, size_t size, void *data)
{
	const ElfW(Dyn) *dynamic = NULL;
	object_t obj;
	void **slot = data;

	(void) size;
	memset(&obj, 0, sizeof(obj));
	read_segments(info, &obj, &dynamic);
	return holds(&obj, slot);
}

/*
 * PHP unloads extensions in reverse order of loading, each right after its
 * MSHUTDOWN: one loaded after this module (and the libraries only it
 * needed) may be gone when this module restores its entries.
 */
static bool still_loaded(void **slot)
{
	return dl_iterate_phdr(find_image, slot) != 0;
}

void rapier_plt_restore(rapier_plt_rebinding_t *rebinding)
{
	for (int i = 0; i < rebinding->count; i++) {
		rapier_plt_patch_t *patch = &rebinding->patches[i];

		if (still_loaded(patch->slot)) {
			store(patch->slot, patch->original, patch->read_only);
		}
	}
	rebinding->count = 0;
}

#else /* no PLT_JUMP_SLOT: an architecture this file does not know */

int rapier_plt_rebind(rapier_plt_rebinding_t *rebinding, const char *soname_prefix, const char *symbol,
	void *replacement)
{
	(void) rebinding;
	(void) soname_prefix;
	(void) symbol;
	(void) replacement;
	return -ENOTSUP;
}

int rapier_plt_rebind_in(rapier_plt_rebinding_t *rebinding, const void *address, const char *symbol,
	void *replacement)
{
	(void) rebinding;
	(void) address;
	(void) symbol;
	(void) replacement;
	return -ENOTSUP;
}

void rapier_plt_restore(rapier_plt_rebinding_t *rebinding)
{
	rebinding->count = 0;
}

#endif

void *rapier_plt_original(const rapier_plt_rebinding_t *rebinding)
{
	return rebinding->count > 0 ? rebinding->patches[0].original : NULL;
}

typedef struct {
	unsigned long long adds, subs;
	bool known;
} load_count_t;

static int read_load_count(struct dl_phdr_info *info, size_t size, void *data)
{
	load_count_t *count = data;

	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof(info->dlpi_subs)) {
		count->adds = info->dlpi_adds;
		count->subs = info->dlpi_subs;
		count->known = true;
	}
	return 1;   /* every object reports the same counts: the first will do */
}

bool rapier_plt_objects_changed(void)
{
	static load_count_t last;
	load_count_t now = { 0, 0, false };

	dl_iterate_phdr(read_load_count, &now);
	if (now.known && last.known && now.adds == last.adds && now.subs == last.subs) {
		return false;
	}
	last = now;
	return true;
}
