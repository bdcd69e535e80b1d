#pragma once
// The files ThreadMap is given to read (a learner's kernel, a submission, a
// pack's files) are read through read_input_file: opened without blocking, so
// a FIFO or a device node named by mistake is refused at once instead of
// hanging the command; refused unless a regular file; and, reached through a
// symbolic link, refused unless the file it names lies inside the folder it
// was named from (a submission linking to another user's file is not sent to
// a compiler, nor to a server).
#include <cstdint>
#include <filesystem>
#include <string>

namespace threadmap {

// The file's bytes, at most `limit` of them (more: InvalidRequest naming the
// limit). `within`: the folder the file must lie inside once every link is
// followed; empty: the folder it is named in. Throws InvalidRequest naming the
// file and what it is otherwise (a FIFO, a folder, a link out of its folder,
// missing, unreadable).
std::string read_input_file(const std::filesystem::path& file, std::uint64_t limit,
                            const std::filesystem::path& within = {});

// What a file that is not a regular one is, in words ("a FIFO (named
// pipe)", "a folder"), from its st_mode: what refusals name.
std::string file_kind(unsigned mode);

}  // namespace threadmap
